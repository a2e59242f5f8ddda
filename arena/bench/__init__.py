"""The API's load benchmark: the anonymous read mix (mix.py), shared by the locust file
(scripts/locustfile.py) and `manage.py api_profile` (queries, memory and time per request)."""
