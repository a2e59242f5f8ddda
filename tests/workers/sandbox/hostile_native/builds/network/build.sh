attempt() {
    if "$@" >/dev/null 2>&1; then echo "LEAK $*"; else echo "BLOCKED $*"; fi
}
attempt bash -c 'echo ping > /dev/tcp/127.0.0.1/5432'
attempt bash -c 'echo ping > /dev/tcp/::1/6379'
attempt curl -sS --max-time 2 http://127.0.0.1:6379/
attempt getent hosts localhost
# The build's own failure: the way a dependency download fails.
python3 -c "import socket; socket.create_connection(('127.0.0.1', 6379), 2)"
