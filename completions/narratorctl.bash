# bash completion for narratorctl
_narratorctl_trees() {
    narratorctl --json trees 2>/dev/null | grep -o '"tree":"[^"]*"' | cut -d'"' -f4
}

_narratorctl() {
    local cur prev words cword
    _init_completion || return
    local commands="show audit help version register update unregister trees focus next previous first last touch activate adjust actions action magic-tap escape rotor announce speak stop status set get voices monitor hello"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        case "${words[i]}" in
            --socket) ((i++)) ;;
            -*) ;;
            *) command="${words[i]}"; break ;;
        esac
    done
    case "$prev" in
        --socket|--svg) _filedir; return ;;
        --priority) COMPREPLY=($(compgen -W "low default high" -- "$cur")); return ;;
        --fail-on) COMPREPLY=($(compgen -W "error warning" -- "$cur")); return ;;
        --notify) COMPREPLY=($(compgen -W "screenChanged layoutChanged" -- "$cur")); return ;;
        --tree) COMPREPLY=($(compgen -W "$(_narratorctl_trees)" -- "$cur")); return ;;
    esac
    if [[ -z "$command" ]]; then
        COMPREPLY=($(compgen -W "$commands --socket --json --help --version" -- "$cur"))
        return
    fi
    case "$command" in
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        register) [[ "$cur" == -* ]] && COMPREPLY=($(compgen -W "--ephemeral --follow" -- "$cur")) || _filedir json ;;
        show|audit) [[ "$cur" == -* ]] && COMPREPLY=($(compgen -W "--json --svg --fail-on --ignore" -- "$cur")) || { _filedir json; COMPREPLY+=($(compgen -W "$(_narratorctl_trees)" -- "$cur")); } ;;
        focus|unregister|update) COMPREPLY=($(compgen -W "$(_narratorctl_trees)" -- "$cur")) ;;
        adjust) COMPREPLY=($(compgen -W "up down" -- "$cur")) ;;
        set|get) COMPREPLY=($(compgen -W "voice rate pitch volume punctuation hints hint-delay" -- "$cur")) ;;
        announce) COMPREPLY=($(compgen -W "--priority --tree --element --key --language" -- "$cur")) ;;
        speak) COMPREPLY=($(compgen -W "--language" -- "$cur")) ;;
        next|previous|first|last|touch) COMPREPLY=($(compgen -W "--tree" -- "$cur")) ;;
    esac
}
complete -F _narratorctl narratorctl
