#!/usr/bin/env bash
# Measures what importing the library costs the type checker in code that never uses it: a
# generated file of 200 arithmetic expressions on plain `Int`s, type-checked with
# `swiftc -typecheck` with no import, with `import Messaging`, and, where a build has it, with
# `import SwiftObserverCompatibility` as well. Not part of CI.
#
# Usage: Benchmarks/TypeCheck/measure.sh [-n RUNS] [-i] [BUILD_DIR ...]
#   BUILD_DIR  a debug build of the package (default .build/debug), built first with
#              `swift build --target SwiftObserverCompatibility` (or `--target Messaging` where that
#              module does not exist). Give two to compare two commits, each built in its own
#              checkout: the runs of all configurations take turns, so that a change in the
#              machine's load affects them alike.
#   RUNS       type-checking runs per configuration (default 5); medians are reported.
#   -i         also count the compiler's instructions under valgrind, once per configuration: a
#              figure that does not depend on the machine's load (about a minute per run).
set -euo pipefail

runs=5
instructions=false
while [[ "${1:-}" == -* ]]; do
    case "$1" in
    -n) runs="$2"; shift 2 ;;
    -i) instructions=true; shift ;;
    *) echo "error: unknown option $1" >&2; exit 1 ;;
    esac
done
(($# > 0)) || set -- "$(dirname "${BASH_SOURCE[0]}")/../../.build/debug"

work_dir="$(mktemp -d)"
trap 'rm -rf "$work_dir"' EXIT

# 200 expressions in one function, each using the previous one, so that none is unused: four shapes
# of `+ - * /` on local `Int` variables and integer literals, in turn.
generate() {
    local imports="$1" file="$2"
    {
        printf '%b' "$imports"
        echo 'func arithmetic(seed: Int) -> Int {'
        echo '    var x = seed'
        echo '    var y = seed / 2'
        echo '    var z = seed % 7'
        local previous=x
        for ((n = 0; n < 200; n++)); do
            case $((n % 4)) in
            0) echo "    let a$n = ($previous + y * 3 - z / 2) + $n" ;;
            1) echo "    let a$n = ($previous - x * 2 + y / 3) * $n" ;;
            2) echo "    let a$n = x * y + z - $previous / $n" ;;
            3) echo "    let a$n = ($previous + z) * (x - y) / ($n + 1)" ;;
            esac
            previous="a$n"
        done
        echo "    x = $previous"
        echo '    y = x - 1'
        echo '    z = y + 1'
        echo '    return x + y + z'
        echo '}'
    } >"$file"
}

generate '' "$work_dir/none.swift"
generate 'import Messaging\n\n' "$work_dir/messaging.swift"
generate 'import Messaging\nimport SwiftObserverCompatibility\n\n' "$work_dir/compatibility.swift"

# A configuration is a label, a source file and the compiler's module flags.
labels=("no import")
files=("$work_dir/none.swift")
flags=("")
for build in "$@"; do
    build="$(cd "$build" && pwd)"
    modules="$build/Modules"
    [[ -e "$modules/Messaging.swiftmodule" ]] || { echo "error: no Messaging module in $modules" >&2; exit 1; }
    search="-I $modules -Xcc -fmodule-map-file=$build/_MessagingShims.build/module.modulemap"
    labels+=("import Messaging [$build]")
    files+=("$work_dir/messaging.swift")
    flags+=("$search")
    if [[ -e "$modules/SwiftObserverCompatibility.swiftmodule" ]]; then
        labels+=("+ SwiftObserverCompatibility [$build]")
        files+=("$work_dir/compatibility.swift")
        flags+=("$search")
    fi
done

# Reads one figure of a -stats-output-dir file: `stat FILE NAME`.
stat() {
    sed -n "s/.*\"$2\": *\([-+0-9.eE]*\).*/\1/p" "$1" | head -1
}

median() {
    tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# Per configuration: the function's type-checking time (-debug-time-function-bodies, wall clock),
# the CPU time (user) of "Type checking and Semantic analysis" (-stats-output-dir), and two counts
# that are the same on every run: the solver's constraint scopes and the declarations read from
# imported modules.
declare -a bodies cpus scopes decls
for ((run = 0; run < runs; run++)); do
    for i in "${!labels[@]}"; do
        stats="$work_dir/stats-$i-$run"
        mkdir -p "$stats"
        # shellcheck disable=SC2086  # the flags are words
        output="$(swiftc -typecheck -swift-version 6 ${flags[$i]} -Xfrontend -debug-time-function-bodies \
            -stats-output-dir "$stats" "${files[$i]}" 2>&1)"
        json="$(ls "$stats"/*.json)"
        bodies[i]+=" $(awk -F'ms' '/arithmetic\(seed:\)/ { print $1; exit }' <<<"$output")"
        cpus[i]+=" $(awk "BEGIN { print $(stat "$json" 'time.swift.Type checking and Semantic analysis.user') * 1000 }")"
        scopes[i]="$(stat "$json" 'Sema.NumConstraintScopes')"
        decls[i]="$(stat "$json" 'Sema.NumDeclsDeserialized')"
    done
done

# Instructions executed by the frontend (no driver) to type-check the file, module loading included.
declare -a counts
if $instructions; then
    frontend="$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-frontend"
    for i in "${!labels[@]}"; do
        # shellcheck disable=SC2086  # the flags are words
        counts[i]="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$frontend" -frontend -typecheck \
            -swift-version 6 ${flags[$i]} "${files[$i]}" 2>&1 | sed -n 's/.*Collected : *//p')"
    done
fi

echo "$(swiftc --version 2>/dev/null | head -1); $runs runs per configuration, taking turns"
echo
printf '%-12s %-12s %-8s %-6s %-14s %s\n' "body (ms)" "sema (ms)" "scopes" "decls" "instructions" "configuration"
for i in "${!labels[@]}"; do
    printf '%-12s %-12s %-8s %-6s %-14s %s\n' "$(median <<<"${bodies[i]}")" "$(median <<<"${cpus[i]}")" \
        "${scopes[i]}" "${decls[i]}" "${counts[i]:--}" "${labels[i]}"
done
cat <<'TEXT'

body: the function's type checking, median (-Xfrontend -debug-time-function-bodies, wall clock)
sema: "Type checking and Semantic analysis", user CPU time, median (-stats-output-dir)
scopes: the constraint solver's scopes; decls: declarations read from imported modules
instructions (with -i): executed by swift-frontend -typecheck, module loading included (callgrind)
TEXT
echo
for i in "${!labels[@]}"; do
    echo "${labels[i]}"
    echo "    body:${bodies[i]}"
    echo "    sema:${cpus[i]}"
done
