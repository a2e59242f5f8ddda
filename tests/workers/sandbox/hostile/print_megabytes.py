"""Prints 8 MB on its first move (print goes to stderr): the capture must stay bounded, the match go on."""

printed = False


def act(observation, legal_actions):
    global printed
    if not printed:
        printed = True
        line = "spam " * 200
        for _ in range(8 << 10):
            print(line)
    return legal_actions[0]
