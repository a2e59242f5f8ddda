// JSON for Moon Arena bots (standard library only): parse text into plain Java values and
// write them back. null, Boolean, Long (integers that fit in 64 bits), Double (every
// other number), String, List<Object> (ArrayList) and Map<String, Object> (LinkedHashMap,
// keeping the key order). Strings are written in ASCII (\\uXXXX escapes), as the arena does.

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json parser = new Json(text);
        Object value = parser.value(0);
        parser.skipSpace();
        if (parser.pos != text.length()) throw parser.error("extra data after the JSON value");
        return value;
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    // Lookups that chain safely: a member of a Map or an element of a List, else null.
    static Object get(Object value, Object... path) {
        for (Object step : path) {
            if (step instanceof String && value instanceof Map) {
                value = ((Map<?, ?>) value).get(step);
            } else if (step instanceof Integer && value instanceof List) {
                List<?> list = (List<?>) value;
                int index = (Integer) step;
                value = index >= 0 && index < list.size() ? list.get(index) : null;
            } else {
                return null;
            }
        }
        return value;
    }

    static int size(Object value) {
        if (value instanceof List) return ((List<?>) value).size();
        if (value instanceof Map) return ((Map<?, ?>) value).size();
        return 0;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at character " + pos);
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
            pos++;
        }
    }

    private Object value(int depth) {
        if (depth > 500) throw error("JSON nested too deeply");
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end of JSON");
        char c = text.charAt(pos);
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        if (text.startsWith("true", pos)) { pos += 4; return Boolean.TRUE; }
        if (text.startsWith("false", pos)) { pos += 5; return Boolean.FALSE; }
        if (text.startsWith("null", pos)) { pos += 4; return null; }
        throw error("unexpected character '" + c + "'");
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> members = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == '}') { pos++; return members; }
        while (true) {
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a key");
            String key = string();
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != ':') throw error("expected ':'");
            pos++;
            members.put(key, value(depth + 1));
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == ',') { pos++; continue; }
            if (pos < text.length() && text.charAt(pos) == '}') { pos++; return members; }
            throw error("expected ',' or '}'");
        }
    }

    private List<Object> array(int depth) {
        List<Object> items = new ArrayList<>();
        pos++;
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == ']') { pos++; return items; }
        while (true) {
            items.add(value(depth + 1));
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == ',') { pos++; continue; }
            if (pos < text.length() && text.charAt(pos) == ']') { pos++; return items; }
            throw error("expected ',' or ']'");
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        pos++; // the opening quote
        while (true) {
            if (pos >= text.length()) throw error("unterminated string");
            char c = text.charAt(pos++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("control character in a string");
            if (c != '\\') { out.append(c); continue; }
            if (pos >= text.length()) throw error("unterminated string");
            char escape = text.charAt(pos++);
            switch (escape) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    // Java strings are UTF-16: a surrogate pair is two escapes, two chars.
                    if (pos + 4 > text.length()) throw error("short \\u escape");
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                    break;
                default: throw error("bad escape");
            }
        }
    }

    private Object number() {
        int start = pos;
        if (text.charAt(pos) == '-') pos++;
        if (pos < text.length() && text.charAt(pos) == '0') pos++;
        else if (!digits()) throw error("bad number");
        boolean integral = true;
        if (pos < text.length() && text.charAt(pos) == '.') {
            integral = false;
            pos++;
            if (!digits()) throw error("bad number");
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            integral = false;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) pos++;
            if (!digits()) throw error("bad number");
        }
        String literal = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooBig) {
                // Beyond 64 bits: a double, as close as it gets.
            }
        }
        return Double.parseDouble(literal);
    }

    private boolean digits() {
        int from = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
        return pos > from;
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer
                || value instanceof Short || value instanceof Byte) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number)) out.append("NaN");
            else if (Double.isInfinite(number)) out.append(number > 0 ? "Infinity" : "-Infinity");
            else out.append(Double.toString(number).replace("E", "e")); // shortest, always a float
        } else if (value instanceof String) {
            writeString(out, (String) value);
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) out.append(',');
                first = false;
                write(out, item);
            }
            out.append(']');
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                writeString(out, String.valueOf(member.getKey()));
                out.append(':');
                write(out, member.getValue());
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException(value.getClass().getName() + " is not JSON");
        }
    }

    private static void writeString(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c >= 0x20 && c < 0x7F) out.append(c);
                    else out.append(String.format("\\u%04x", (int) c));
            }
        }
        out.append('"');
    }
}
