"""Workers: the referee, the sandbox, the Celery app and its tasks, and the `arena` CLI.

`celery -A workers worker` finds the app in `workers/celery.py`; importing this
package itself needs neither Celery nor Django, so local play works without them.
"""
