attempt() {
    if ( echo planted > "$1" ) 2>/dev/null; then echo "LEAK $1"; else echo "BLOCKED $1"; fi
}
for target in /usr/planted-by-build /usr/bin/planted-by-build /etc/planted-by-build \
        /build/../planted-by-build /tmp/../planted-by-build /root/planted-by-build \
        /dev/planted-by-build /proc/sys/kernel/hostname \
        /usr/bin/g++; do
    attempt "$target"
done
# /dev/shm, like /tmp, is a tmpfs of the sandbox's own: writable, never the host's.
echo planted > /dev/shm/planted-by-build && echo "PRIVATE /dev/shm/planted-by-build"
if ln /usr/bin/sh hard-link-to-sh 2>/dev/null; then echo "LEAK hard link"; else echo "BLOCKED hard link"; fi
echo planted > /usr/planted-by-build
