// Moon Arena bot protocol for Go (standard library only): the loop that answers the
// arena, and helpers to read the observation.
//
// The arena writes one JSON object per line on stdin ("start", "act", "end"); the bot
// answers each "act" with one line {"match": ..., "action": <one of legal_actions>}.
// Nothing else may go to stdout: log with Log (stderr).
//
// Observations are decoded with UseNumber: numbers are json.Number (exact), objects
// map[string]any, arrays []any. Each legal action keeps its own JSON text (Raw), and
// the reply sends the chosen one's text back unchanged.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Action is one element of legal_actions: its JSON text as received, and its value.
type Action struct {
	Raw   json.RawMessage
	Value any
}

// Bot is one match's player. Act returns one of legalActions.
type Bot interface {
	Start(info map[string]any)
	Act(observation map[string]any, legalActions []Action) Action
	End(result any)
}

// BotBase gives a Bot empty Start and End hooks: embed it.
type BotBase struct{}

func (BotBase) Start(map[string]any) {}
func (BotBase) End(any)              {}

// Log writes one line to stderr (the arena keeps the first 64 KiB of a match's stderr).
func Log(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// Get follows keys (string) and indices (int) into a decoded value; nil when missing.
func Get(value any, path ...any) any {
	for _, step := range path {
		switch key := step.(type) {
		case string:
			object, ok := value.(map[string]any)
			if !ok {
				return nil
			}
			value = object[key]
		case int:
			array, ok := value.([]any)
			if !ok || key < 0 || key >= len(array) {
				return nil
			}
			value = array[key]
		default:
			return nil
		}
	}
	return value
}

// Int is a decoded number as an int64 (0 when it is not an integer).
func Int(value any) int64 {
	if number, ok := value.(json.Number); ok {
		if n, err := number.Int64(); err == nil {
			return n
		}
	}
	return 0
}

// Str is a decoded string ("" when it is not a string).
func Str(value any) string {
	text, _ := value.(string)
	return text
}

// Len is the length of a decoded array or object (0 for anything else).
func Len(value any) int {
	switch v := value.(type) {
	case []any:
		return len(v)
	case map[string]any:
		return len(v)
	}
	return 0
}

func decode(data []byte, into any) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber()
	if err := decoder.Decode(into); err != nil {
		return err
	}
	if _, err := decoder.Token(); err != io.EOF {
		return fmt.Errorf("extra data after the JSON value")
	}
	return nil
}

type request struct {
	Type         string            `json:"type"`
	Match        json.RawMessage   `json:"match"`
	Observation  json.RawMessage   `json:"observation"`
	LegalActions []json.RawMessage `json:"legal_actions"`
	Result       json.RawMessage   `json:"result"`
}

func say(out *bufio.Writer, line []byte) {
	out.Write(line)
	out.WriteByte('\n')
	out.Flush()
}

func hasMatch(match json.RawMessage) bool {
	return len(match) > 0 && string(match) != "null"
}

// fail writes {"match": ..., "error": ...} and ends the process with status 1.
func fail(out *bufio.Writer, match json.RawMessage, reason string) {
	if len(reason) > 500 {
		reason = reason[:500]
	}
	text, _ := json.Marshal(reason)
	var line []byte
	if hasMatch(match) {
		line = append(append(append([]byte(`{"match":`), match...), `,"error":`...), text...)
	} else {
		line = append([]byte(`{"error":`), text...)
	}
	say(out, append(line, '}'))
	Log("error: %s", reason)
	os.Exit(1)
}

// Run answers the arena until its input closes. newBot makes the player of one match:
// several matches may interleave in one process, each keyed by its "match" value.
func Run(newBot func() Bot) {
	input := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	playing := map[string]Bot{}
	botFor := func(key string) Bot {
		bot, ok := playing[key]
		if !ok {
			bot = newBot()
			playing[key] = bot
		}
		return bot
	}
	for {
		// ReadBytes has no line length limit (bufio.Scanner stops at 64 KiB).
		line, err := input.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if !json.Valid(line) {
				fail(out, nil, "the referee sent a line that is not JSON")
			}
			var message request
			if decodeErr := decode(line, &message); decodeErr != nil {
				fail(out, nil, "the referee sent a line that is not a JSON object")
			}
			match := bytes.TrimSpace(message.Match)
			key := string(match)
			if !hasMatch(match) {
				key = "null"
			}
			switch message.Type {
			case "act":
				var observation map[string]any
				if decodeErr := decode(message.Observation, &observation); decodeErr != nil {
					fail(out, match, "the observation is not a JSON object")
				}
				actions := make([]Action, len(message.LegalActions))
				for i, raw := range message.LegalActions {
					actions[i].Raw = raw
					if decodeErr := decode(raw, &actions[i].Value); decodeErr != nil {
						fail(out, match, "a legal action is not JSON")
					}
				}
				action := botFor(key).Act(observation, actions)
				var reply []byte
				if hasMatch(match) {
					reply = append(append([]byte(`{"match":`), match...), ',')
				} else {
					reply = []byte{'{'}
				}
				reply = append(append(append(reply, `"action":`...), action.Raw...), '}')
				say(out, reply)
			case "start":
				var info map[string]any
				decode(line, &info)
				bot := newBot()
				playing[key] = bot
				bot.Start(info)
			case "end":
				var result any
				if len(message.Result) > 0 {
					decode(message.Result, &result)
				}
				botFor(key).End(result)
				delete(playing, key)
				if !hasMatch(match) {
					os.Exit(0)
				}
			}
		}
		if err != nil { // io.EOF: the arena closed the input
			return
		}
	}
}
