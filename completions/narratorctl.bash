# bash completion for narratorctl, printed by "narratorctl completion bash" (completions/
# narratorctl.bash is that output: regenerate it, do not edit it by hand).
#
# Every candidate comes from narratorctl itself ("narratorctl __complete CWORD WORDS..."), so
# commands, options and their values follow the narratorctl being completed; trees, element
# ids, voices (a voice's variants once its "+" is typed), actions and rotors are asked of the
# daemon, quietly: nothing is offered when none answers. Needs bash alone: file names come from the bash-completion package's _filedir
# when it is loaded, else from compgen. Without that package nothing loads this file by
# itself; add to ~/.bashrc:  source <(narratorctl completion bash)
_narratorctl() {
    local program=${COMP_WORDS[0]} line=$COMP_LINE cword=$COMP_CWORD seen=" " cur keep kind word output
    local -a words=("${COMP_WORDS[@]}") reply alias
    # An alias (the README's tour makes narratorctl one for .build/debug/narratorctl): ask the
    # program it runs, not whatever narratorctl is on PATH, with the words it adds.
    while [[ -n $program && -n ${BASH_ALIASES[$program]+set} && $seen != *" $program "* ]]; do
        seen+="$program "
        read -ra alias <<<"${BASH_ALIASES[$program]}"
        ((${#alias[@]})) || break
        line=${alias[*]}${line#*"$program"}
        words=("${alias[@]}" "${words[@]:1}")
        cword=$((cword + ${#alias[@]} - 1))
        program=${alias[0]}
    done
    [[ $program == "~" || $program == "~/"* ]] && program=$HOME${program#"~"}
    # A name alone is looked for on PATH only (type -P), not among functions and aliases.
    [[ $program == */* ]] || program=$(type -P -- "$program") || return 0
    [[ -x $program ]] || return 0
    # Command substitutions, not <(...): bash waits for them, so no child outlives the TAB.
    # COMP_LINE tells "app:main" from "app: main" (bash splits both at the ":").
    output=$(COMP_LINE=$line "$program" __complete "$cword" "${words[@]}" 2>/dev/null)
    COMPREPLY=()
    [[ -n $output ]] || return 0
    mapfile -t reply <<<"$output"
    # Whether file names are wanted; the word being completed as typed (bash's COMP_WORDS
    # split it at ":" and "="; after "--option=", the value); the start of it that readline
    # keeps, for it replaces only what follows the last ":" or "=".
    kind=${reply[0]} cur=${reply[1]} keep=${reply[2]}
    reply=("${reply[@]:3}")
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
            if [[ $cur == "~"* && $cur != */* ]]; then
                # "~" or "~na": the users' home directories, as bash offers them.
                output=$(compgen -P "~" -u -- "${cur#"~"}")
            elif [[ -n $extension ]]; then
                output=$(compgen -d -- "$base"; compgen -f -X "!*.$extension" -- "$base")
            else
                output=$(compgen -f -- "$base")
            fi
            [[ -n $output ]] && mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY <<<"$output"
        fi
        # As bash-completion's __ltrim_colon_completions: "--db /a:b" offers "bc", not "/a:bc".
        # Readline would look for the directory "bc" to add its "/": add it here.
        if [[ -n $keep ]]; then
            for word in "${!COMPREPLY[@]}"; do
                if [[ -d ${COMPREPLY[word]/#"~/"/$HOME/} ]]; then
                    COMPREPLY[word]+=/
                    compopt -o nospace 2>/dev/null
                fi
            done
            COMPREPLY=("${COMPREPLY[@]#"$keep"}")
        fi
        return 0
    fi
    COMPREPLY=("${reply[@]}")
    [[ -n $keep ]] && COMPREPLY=("${COMPREPLY[@]#"$keep"}")
    # A word the shell would split or expand (a voice's name): readline quotes it as it does
    # file names, also in the prefix it inserts when several match.
    for word in "${COMPREPLY[@]}"; do
        if [[ $word == *[^A-Za-z0-9_./:@%+,=-]* ]]; then
            compopt -o filenames 2>/dev/null
            break
        fi
    done
}
complete -F _narratorctl narratorctl
