"""Starts threads until it cannot: the process limit counts threads too."""

import threading
import time


def act(observation, legal_actions):
    threads = []
    while True:
        thread = threading.Thread(target=time.sleep, args=(60,), daemon=True)
        thread.start()
        threads.append(thread)
