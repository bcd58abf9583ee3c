#!/usr/bin/env bash
# Counts the instructions per operation of every scenario (or of those named), with valgrind's
# callgrind: each scenario runs with N repetitions and with 0, and the difference is divided by N
# (by 1,000 N for the scenarios that deliver to or ask about 1,000 observers). Build first:
#
#     cd Benchmarks/InstructionCounts && swift build -c release -Xcc -gdwarf-4 && ./count.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
binary=.build/release/InstructionCounts
[[ -x $binary ]] || { echo "build first: swift build -c release -Xcc -gdwarf-4" >&2; exit 1; }

scenarios=("$@")
if ((${#scenarios[@]} == 0)); then
    scenarios=(closure-send-1 messenger-send-1 var-set standalone-map-1 messenger-fused-chain-1
        messenger-chain-1 closure-send-1000
        messenger-send-1000 closure-chain-1000 messenger-fused-chain-1000 messenger-chain-1000
        standalone-map-shared-1000
        token-subscribe-cancel observe-existing observe-and-stop empty-messenger am-i-subscribed-1000
        throttle-1 debounce-1 chain-throttle-1 chain-debounce-1 chain-throttle-latest-1 chain-delay-1
        chain-timeout-1 combine-latest-2 combine-latest-4 zip-2
        combine-latest-5 ledger-subscribe-unsubscribe main-actor-send-1
        array-append-1e5 array-append-count-1e5 array-append-sum-1e4 array-append-sum-1e5 array-append-sum-1e6
        recompute-sum-1e5 array-append-sorted-1e4 array-append-sorted-1e5 array-append-sorted-1e6
        array-append-sorted-prefix-1e4 array-append-sorted-prefix-1e5 array-append-sorted-prefix-1e6
        array-append-min-1e4 array-append-min-1e5 array-append-min-1e6 recompute-sorted-1e5
        recompute-min-1e5 array-append-count-where-1e4 array-append-count-where-1e5
        array-append-count-where-1e6 recompute-count-where-1e5 array-set-element-1000
        array-var-set-element-1000 array-insert-1e4 array-insert-1e5 array-insert-1e6
        array-insert-filter-1e4 array-insert-filter-1e5 array-insert-filter-1e6 recompute-filter-1e5
        array-insert-filter-property-1e4 array-insert-filter-property-1e5 array-insert-filter-property-1e6
        property-flip-filter-1e5 property-update-follow-each-1e5 recompute-filter-property-1e5
        array-insert-filter-parameter-1e4 array-insert-filter-parameter-1e5 array-insert-filter-parameter-1e6
        parameter-change-filter-1e5 recompute-filter-parameter-1e5
        set-insert-1e5 set-insert-filter-parameter-1e5 set-insert-transaction-1e5 set-insert-count-1e5
        set-insert-count-expression-1e5 set-insert-contains-1e5 set-insert-contains-expression-1e5
        dictionary-update-1e5
        parameter-change-set-filter-1e5
        recompute-set-filter-parameter-1e5 set-insert-flagged-1e5 set-insert-filter-property-1e5
        property-flip-set-filter-1e5 recompute-set-filter-property-1e5
        array-append-concatenated-1e5 expression-var-set-2 expression-array-share-1e5
        expression-array-range-1e5 array-insert-share-property-1e5 property-flip-share-1e5
        array-append-transaction-sum-1e5)
fi

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for scenario in "${scenarios[@]}"; do
    case $scenario in
        *-1000) repetitions=100; divisor=100000 ;;
        token-subscribe-cancel | observe-existing | observe-and-stop | empty-messenger | ledger-subscribe-unsubscribe)
            repetitions=10000
            divisor=10000
            ;;
        array-insert-* | property-flip-*) repetitions=1000; divisor=1000 ;;
        parameter-change-* | recompute-filter-parameter-* | recompute-set-filter-parameter-*) repetitions=20; divisor=20 ;;
        set-insert-* | dictionary-update-*) repetitions=10000; divisor=10000 ;;
        recompute-*-1e4) repetitions=1000; divisor=1000 ;;
        recompute-*) repetitions=100; divisor=100 ;;
        array-*-1e6) repetitions=10000; divisor=10000 ;;
        *) repetitions=100000; divisor=100000 ;;
    esac
    base=$(instructions "$scenario" 0)
    total=$(instructions "$scenario" "$repetitions")
    printf '%-28s %10.1f\n' "$scenario" "$(echo "($total - $base) / $divisor" | bc -l)"
done
