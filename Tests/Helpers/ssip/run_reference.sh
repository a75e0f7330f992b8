#!/bin/sh
# Proves the SSIP harness against Debian's real speech-dispatcher 0.11.4: every scenario, with the
# traffic and results saved in LOG_DIR (default /tmp/ssip-harness-logs). Exit status: 0 when every
# run gave what speech-dispatcher is known to give (pause and marks_across_sentences fail there,
# by speech-dispatcher's own faults; see README.md).
#   Tests/Helpers/ssip/run_reference.sh [LOG_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
logs=${1:-/tmp/ssip-harness-logs}
py=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
mkdir -p "$logs"
status=0
fifo=$(mktemp -u /tmp/ssip-ref-fifo.XXXXXX)
mkfifo "$fifo"
# The reference server lives while this script holds the fifo open.
"$py" "$here/reference_server.py" --tap-log "$logs/speechd_client.tap.log" --lifetime 900 <"$fifo" >"$logs/reference.json" 2>"$logs/reference.stderr" &
ref=$!
exec 9>"$fifo"
rm -f "$fifo"
trap 'exec 9>&-; wait $ref' EXIT INT TERM
for i in $(seq 100); do [ -s "$logs/reference.json" ] && break; sleep 0.1; done
address=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["speechd_address"])' "$logs/reference.json") || exit 1
echo "speech-dispatcher at $address (tap log: $logs/speechd_client.tap.log)"

run() { # name expected-status command...
    name=$1; want=$2; shift 2
    timeout -k 5 300 "$@" >"$logs/$name.jsonl" 2>"$logs/$name.stderr"
    got=$?
    verdict=ok; [ "$got" = "$want" ] || { verdict=UNEXPECTED; status=1; }
    echo "$name: exit $got (expected $want) $verdict"
}
for s in hello callbacks setters cancel priorities; do
    run "python-$s" 0 "$py" "$here/speechd_client.py" "$s" --address "$address"
done
run python-marks_across_sentences 1 "$py" "$here/speechd_client.py" marks_across_sentences --address "$address"
: >"$logs/spdsay.tap.log"
run spdsay 0 "$py" "$here/spdsay_cases.py" --address "$address" --log "$logs/spdsay.tap.log"
# Pause last: speech-dispatcher 0.11.4 stays silent after it until restarted.
run python-pause 1 "$py" "$here/speechd_client.py" pause --address "$address" --timeout 8
# Orca with its own speech-dispatcher and PulseAudio, recorded.
run orca 0 "$py" "$here/orca_session.py" --reference-speechd --log-dir "$logs/orca-speechd"
exit $status
