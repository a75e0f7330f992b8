#!/usr/bin/env bash
# Builds the libFuzzer fuzzers outside SwiftPM, so that `swift build` and `swift test` never see
# them: the pure modules (NarratorBase up to NarratorCore, NarratorBridge and NarratorDBus), NarratorCommandLine (the
# shared option parser) and the parsing part of NarratorCLI are compiled here, instrumented for coverage and AddressSanitizer, and linked with
# each Fuzz/*Fuzzer.swift entry point.
#
# Usage: Fuzz/build.sh [OUT_DIR]   (default .build/fuzz); prints nothing but errors.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
OUT=${1:-.build/fuzz}
mkdir -p "$OUT"

# One package name for every module, as SwiftPM gives them: members the layers share are `package`.
FLAGS=(-O -wmo -parse-as-library -sanitize=fuzzer,address -swift-version 6
       -enable-upcoming-feature ExistentialAny -warnings-as-errors -use-ld=lld -package-name narrator)

# Whether OUTPUT is missing or older than any of INPUTS (or this script): rebuild only then.
stale() { # OUTPUT INPUTS...
    local output=$1; shift
    [ -e "$output" ] || return 0
    for input in "$@" Fuzz/build.sh; do [ "$input" -nt "$output" ] && return 0; done
    return 1
}

# The library modules, each built once and shared by the fuzzers that need it. DEPENDENCIES are
# the libraries it imports (already built), a comma-separated list, empty for none.
library() { # NAME DEPENDENCIES SOURCES...
    local name=$1 dependencies=$2; shift 2
    local built=(); IFS=, read -ra built <<<"$dependencies"
    built=("${built[@]/#/$OUT/lib}"); built=("${built[@]/%/.a}")
    stale "$OUT/lib$name.a" "$@" "${built[@]}" || return 0
    "$SWIFTC" "${FLAGS[@]}" -emit-library -static -emit-module -module-name "$name" \
        -I "$OUT" -emit-module-path "$OUT/$name.swiftmodule" -o "$OUT/lib$name.a" "$@"
}

# Everything under the pure modules and Sources/NarratorCommandLine, found afresh each time so new
# files are fuzzed too; each built on the ones below it.
sources() { find "Sources/$1" -name '*.swift' | sort; }
mapfile -t base < <(sources NarratorBase)
library NarratorBase "" "${base[@]}"
mapfile -t model < <(sources NarratorModel)
library NarratorModel NarratorBase "${model[@]}"
# The pure layers in the order they import each other (Package.swift's), each with the ones below it.
layers=(NarratorEngines:NarratorBase,NarratorModel
        NarratorSpeechPlan:NarratorBase,NarratorModel,NarratorEngines
        NarratorSSIP:NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan
        NarratorProtocol:NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan
        NarratorExperiments:NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan,NarratorSSIP
        NarratorKeyboard:NarratorBase
        NarratorDBus:
        NarratorBridge:NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan,NarratorProtocol,NarratorKeyboard,NarratorDBus
        NarratorCore:NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan,NarratorSSIP,NarratorProtocol)
for layer in "${layers[@]}"; do
    mapfile -t files < <(sources "${layer%%:*}")
    library "${layer%%:*}" "${layer#*:}" "${files[@]}"
done
mapfile -t command_line < <(sources NarratorCommandLine)
library NarratorCommandLine NarratorBase "${command_line[@]}"

# Only the argument grammar of NarratorCLI: the commands' specs and parsers, none of the files
# that run a command (those pull in sockets, SQLite and eSpeak NG, which parsing never uses).
cli_files=(AnnouncementCommands AuditCommandSpec Command CommandCatalog DaemonCommands ExperimentCommandSpec GlobalOption
           InvocationParser KeysCommandSpec LogTime Suggestion+CLI)
cli_sources=(); for f in "${cli_files[@]}"; do cli_sources+=("Sources/NarratorCLI/$f.swift"); done
library NarratorCLI NarratorBase,NarratorModel,NarratorEngines,NarratorSpeechPlan,NarratorProtocol,NarratorExperiments,NarratorCommandLine "${cli_sources[@]}"

fuzzer() { # NAME LIBRARIES...
    local name=$1; shift
    local libraries=("${@/#/$OUT/lib}"); libraries=("${libraries[@]/%/.a}")
    stale "$OUT/$name" "Fuzz/$name.swift" Fuzz/FuzzCheck.swift "${libraries[@]}" || return 0
    "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -I "$OUT" -L "$OUT" "${@/#/-l}" \
        "Fuzz/$name.swift" Fuzz/FuzzCheck.swift -o "$OUT/$name"
}
pure=(NarratorCore NarratorBridge NarratorDBus NarratorKeyboard NarratorExperiments NarratorProtocol NarratorSSIP NarratorSpeechPlan NarratorEngines NarratorModel NarratorBase)
fuzzer TreeDocumentFuzzer "${pure[@]}"
fuzzer RequestFuzzer "${pure[@]}"
fuzzer SSIPFuzzer "${pure[@]}"
fuzzer ArgumentsFuzzer NarratorCLI NarratorCommandLine "${pure[@]}"
fuzzer TraceFuzzer "${pure[@]}"
fuzzer DBusFuzzer "${pure[@]}"
fuzzer KeymapFuzzer "${pure[@]}"
