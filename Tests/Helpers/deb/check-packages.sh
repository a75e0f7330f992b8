#!/usr/bin/env bash
# make deb-check: installs the packages `make deb` built into a fresh Debian 12 chroot, where no
# Swift toolchain exists, and checks what a user meets there:
#   - apt-get resolves and installs both packages with their declared dependencies;
#   - the programs run (narratorctl version, narratord --help, narrator-atspi --help);
#   - narratord --audio null answers narratorctl status;
#   - spd-say -o piper is spoken through narratord --ssip, by the Piper engine (its monitor says so)
#     into a WAV file that holds sound;
#   - installing enabled no unit; dpkg -r, and dpkg -P after a second install, leave no file that
#     dpkg -L listed.
# Usage: check-packages.sh DEB_OUT VERSION MIRROR   (as root: chroot and mounts)
set -euo pipefail

out=$(realpath "$1"); version=$2; mirror=$3
[ "$(id -u)" = 0 ] || { echo "deb-check: needs root (a chroot and its mounts)"; exit 1; }
debs=("$out/narrator_${version}_amd64.deb" "$out/narrator-piper_${version}_amd64.deb")
for deb in "${debs[@]}"; do [ -f "$deb" ] || { echo "deb-check: $deb is missing: run make deb"; exit 1; }; done

# The base system is made once with debootstrap and kept as a tarball; each run unpacks it anew.
base="$out/bookworm-minbase.tar"
if [ ! -f "$base" ]; then
    echo "deb-check: making a Debian 12 base system with debootstrap (kept in $base)"
    rm -rf "$out/base"
    debootstrap --variant=minbase bookworm "$out/base" "$mirror" >"$out/debootstrap.log" 2>&1 \
        || { tail -n 20 "$out/debootstrap.log"; exit 1; }
    tar -C "$out/base" -cf "$base.new" . && mv "$base.new" "$base" && rm -rf "$out/base"
fi
root="$out/chroot"
rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$base"
mkdir -p "$root/tmp/debs" && cp "${debs[@]}" "$root/tmp/debs/"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# The checks run in a private mount namespace, so the mounts end with it; a failed check ends
# this script (set -e) and leaves the chroot to look into.
export root version
unshare --mount --propagation private --fork bash -euo pipefail -c '
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/dev/shm"
mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666 2>/dev/null || true
mount -t tmpfs tmpfs "$root/run"

# A clean environment: nothing of the host, the Swift toolchain least of all.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"; }
# In the background, as the chroot process itself ($! is the program, which a kill reaches).
start_in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@" & }
fail() { echo "deb-check: FAILED: $*"; exit 1; }
pass() { echo "deb-check: ok: $*"; }

[ ! -e "$root/opt/swift" ] || fail "the chroot has a Swift toolchain"
in_root apt-get update -qq
install_packages() {
    in_root apt-get install -y -qq --no-install-recommends "/tmp/debs/narrator_${version}_amd64.deb" "/tmp/debs/narrator-piper_${version}_amd64.deb" >/tmp/deb-check-apt.log 2>&1 \
        || { tail -n 30 /tmp/deb-check-apt.log; fail "apt-get install ./narrator_*.deb ./narrator-piper_*.deb"; }
}
install_packages
pass "apt-get install of narrator and narrator-piper, with their dependencies"
# spd-say is the client; its package brings speech-dispatcher, which is never started here.
in_root apt-get install -y -qq --no-install-recommends speech-dispatcher >/tmp/deb-check-apt.log 2>&1 \
    || { tail -n 30 /tmp/deb-check-apt.log; fail "apt-get install speech-dispatcher (for spd-say)"; }

for program in narratord narratorctl narrator-atspi narrator-flite; do
    missing=$(in_root ldd /usr/bin/$program | grep -E "not found|swift" || true)
    [ -z "$missing" ] || fail "$program links what is not installed: $missing"
done
pass "no program needs a library outside the installed packages (ldd)"

in_root narratorctl version | grep -qx "narratorctl $version .*" || fail "narratorctl version"
pass "narratorctl version: $(in_root narratorctl version)"
in_root narratord --help | grep -q "^Usage: narratord" || fail "narratord --help"
pass "narratord --help"
in_root narrator-atspi --help | grep -q "^Usage: narrator-atspi" || fail "narrator-atspi --help"
pass "narrator-atspi --help"
in_root narrator-piper --help | grep -q "usage: narrator-piper" || fail "narrator-piper --help"
pass "narrator-piper --help"

# deb-systemd-helper keeps a note of the units (under /var/lib/systemd), but enables none: no
# link under /etc/systemd, for any user or globally.
links=$(find "$root/etc/systemd" -name "*narrator*" 2>/dev/null || true)
[ -z "$links" ] || fail "installing enabled units: $links"
pass "installing enabled no unit"

# narratord answers status with the null output.
mkdir -p "$root/tmp/run"
start_in_root narratord --audio null --socket /tmp/run/json.sock --state-dir /tmp/run/state >/tmp/deb-check-narratord.log 2>&1
daemon=$!
for _ in $(seq 100); do [ -S "$root/tmp/run/json.sock" ] && break; sleep 0.1; done
status=$(in_root narratorctl --socket /tmp/run/json.sock status) || { cat /tmp/deb-check-narratord.log; fail "narratorctl status"; }
echo "$status" | grep -q "^narratord $version" || fail "narratorctl status said: $status"
pass "narratord --audio null answers narratorctl status"
kill $daemon; wait $daemon || true

# spd-say through narratord --ssip, in Piper, written to WAV files.
rm -rf "$root/tmp/run" && mkdir -p "$root/tmp/run/wav"
start_in_root narratord --audio wav:/tmp/run/wav --socket /tmp/run/json.sock --ssip /tmp/run/ssip.sock \
    --state-dir /tmp/run/state >/tmp/deb-check-narratord.log 2>&1
daemon=$!
for _ in $(seq 100); do [ -S "$root/tmp/run/ssip.sock" ] && break; sleep 0.1; done
start_in_root narratorctl --socket /tmp/run/json.sock --json monitor >"$root/tmp/run/monitor.json" 2>&1
monitor=$!
sleep 0.5
timeout 120 chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root SPEECHD_ADDRESS=unix_socket:/tmp/run/ssip.sock \
    spd-say -w -o piper "Narrator was installed from its Debian package." \
    || { cat /tmp/deb-check-narratord.log; fail "spd-say -w -o piper"; }
sleep 0.5
kill $monitor 2>/dev/null || true
grep -q "\"engine\":\"piper\"" "$root/tmp/run/monitor.json" \
    || { cat "$root/tmp/run/monitor.json" /tmp/deb-check-narratord.log; fail "the utterance was not given to Piper"; }
grep -q "\"outcome\":\"spoken\"" "$root/tmp/run/monitor.json" || { cat "$root/tmp/run/monitor.json"; fail "the utterance was not spoken"; }
wav=$(ls "$root"/tmp/run/wav/*.wav 2>/dev/null | head -n 1)
[ -n "$wav" ] || fail "no WAV file was written"
# Loud samples: the 16-bit PCM after the header, any of magnitude above 1000.
/usr/bin/python3 - "$wav" <<PY || fail "the WAV file holds no sound"
import sys, wave, array
w = wave.open(sys.argv[1]); samples = array.array("h", w.readframes(w.getnframes()))
loud = sum(1 for s in samples if abs(s) > 1000)
print("deb-check: ok: spd-say -o piper spoken through narratord --ssip: %.2f s at %d Hz, %d loud samples" % (w.getnframes() / w.getframerate(), w.getframerate(), loud))
sys.exit(0 if loud > 1000 else 1)
PY
kill $daemon; wait $daemon || true
rm -rf "$root/tmp/run"

# What dpkg says the packages hold; after each removal none of it may remain (a directory only
# where another package still owns it).
check_gone() {
    local how=$1 left=""
    while read -r path; do
        [ -e "$root$path" ] || [ -L "$root$path" ] || continue
        if [ -d "$root$path" ] && [ ! -L "$root$path" ] && in_root dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
        left="$left $path"
    done < /tmp/deb-check-files
    [ -z "$left" ] || fail "$how left $(echo $left | wc -w) paths: $(echo $left | tr " " "\n" | head -n 10 | tr "\n" " ")..."
    pass "$how leaves nothing of the packages ($(wc -l </tmp/deb-check-files) paths checked)"
}
in_root dpkg -L narrator narrator-piper | grep -vxE "/\.|" | sort -u >/tmp/deb-check-files
in_root dpkg -r narrator-piper narrator >/dev/null
check_gone "dpkg -r"
install_packages
in_root narrator-piper --list-voices >/dev/null || fail "narrator-piper --list-voices after reinstalling"
in_root dpkg -P narrator-piper narrator >/dev/null
check_gone "dpkg -P"
# Purging also takes what the maintainer scripts made: compiled Python, the notes of deb-systemd-helper.
left=$(find "$root/etc" "$root/var/lib" "$root/usr" -name "*narrator*" -not -path "$root/var/lib/apt/*" 2>/dev/null || true)
[ -z "$left" ] || fail "dpkg -P left: $left"
pass "dpkg -P leaves nothing named narrator under /etc, /var/lib and /usr"
echo "deb-check: all checks passed"
'
# Kept when a check failed, to look into.
rm -rf "$root"
