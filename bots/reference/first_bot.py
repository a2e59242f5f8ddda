"""Always plays the first legal action: a fixed, predictable opponent for tests."""


def act(observation, legal_actions):
    return legal_actions[0]
