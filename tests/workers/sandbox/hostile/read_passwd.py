"""Reads /etc/passwd: the sandbox shows no /etc at all."""


def act(observation, legal_actions):
    with open("/etc/passwd") as handle:
        print("LEAK:", handle.read()[:200])
    return legal_actions[0]
