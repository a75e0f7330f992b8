# bash completion for narratorctl, printed by "narratorctl completion bash" (completions/
# narratorctl.bash is that output: regenerate it, do not edit it by hand).
#
# Every candidate comes from narratorctl itself ("narratorctl __complete CWORD WORDS..."), so
# commands, options and their values follow the narratorctl being completed; trees, element
# ids, voices, actions and rotors are asked of the daemon, quietly: nothing is offered when
# none answers. Needs bash alone: file names come from the bash-completion package's _filedir
# when it is loaded, else from compgen. Without that package nothing loads this file by
# itself; add to ~/.bashrc:  source <(narratorctl completion bash)
_narratorctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} program=${COMP_WORDS[0]} kind word output
    local -a reply
    [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
    command -v -- "$program" >/dev/null 2>&1 || program=narratorctl
    # Command substitutions, not <(...): bash waits for them, so no child outlives the TAB.
    output=$("$program" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
    COMPREPLY=()
    [[ -n $output ]] || return 0
    mapfile -t reply <<<"$output"
    kind=${reply[0]}
    reply=("${reply[@]:1}")
    # Right after "--option=" bash replaces what follows the "=", which is nothing yet.
    [[ $cur == "=" ]] && cur=""
    if [[ $kind == files* ]]; then
        local extension=${kind#files}
        extension=${extension#:}
        COMPREPLY=("${reply[@]}")
        if declare -F _filedir >/dev/null; then
            _filedir $extension
        else
            compopt -o filenames 2>/dev/null
            local base=${cur#[\"\']}
            base=${base//\\/}
            if [[ -n $extension ]]; then
                output=$(compgen -d -- "$base"; compgen -f -X "!*.$extension" -- "$base")
            else
                output=$(compgen -f -- "$base")
            fi
            [[ -n $output ]] && mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY <<<"$output"
        fi
        return 0
    fi
    COMPREPLY=("${reply[@]}")
    # A word the shell would split or expand (a voice's name): readline quotes it as it does
    # file names, also in the prefix it inserts when several match.
    for word in "${reply[@]}"; do
        if [[ $word == *[^A-Za-z0-9_./:@%+,=-]* ]]; then
            compopt -o filenames 2>/dev/null
            break
        fi
    done
}
complete -F _narratorctl narratorctl
