#ifndef NARRATOR_CFLITE_SHIM_H
#define NARRATOR_CFLITE_SHIM_H
// Flite 2.2's public API, as installed by Debian's flite1-dev, and the little C that Swift
// cannot say: the voices' register functions (declared by no installed header), the jump that
// turns Flite's fatal errors into a result, and the features set on a voice (whose names Flite
// keeps as given, so they must be C literals).
#include <setjmp.h>
#include <flite/flite.h>
#include <flite/flite_version.h>
#include <flite/cst_cg.h>

// Each built-in voice library registers its voice with one call (the voice directory is unused
// for voices compiled in). A second call returns the same voice.
cst_voice *register_cmu_us_slt(const char *voxdir);
cst_voice *register_cmu_us_kal(const char *voxdir);
cst_voice *register_cmu_us_kal16(const char *voxdir);
cst_voice *register_cmu_us_awb(const char *voxdir);
cst_voice *register_cmu_us_rms(const char *voxdir);

/// The callback Flite calls with each new piece of a waveform (`start`, `size` in samples;
/// `last` on the final piece); it returns CST_AUDIO_STREAM_CONT or CST_AUDIO_STREAM_STOP.
typedef int (*narrator_flite_stream_callback)(const cst_wave *wave, int start, int size, int last,
                                              cst_audio_streaming_info *info);

/// Has every synthesis with `voice` hand its audio to `callback` (with `userdata`) in pieces of
/// at least `min_samples`, as Flite's waveform synthesis produces them. The voice's features own
/// the streaming info from then on.
static inline void narrator_flite_stream(cst_voice *voice, narrator_flite_stream_callback callback,
                                         void *userdata, int min_samples) {
    cst_audio_streaming_info *info = new_audio_streaming_info();
    info->asc = callback;
    info->userdata = userdata;
    info->min_buffsize = min_samples;
    flite_feat_set(voice->features, "streaming_info", audio_streaming_info_val(info));
}

/// The userdata given to narrator_flite_stream, from inside the callback.
static inline void *narrator_flite_stream_userdata(const cst_audio_streaming_info *info) {
    return info->userdata;
}

/// flite_synth_text, except that Flite's fatal errors (cst_error, which would exit the process)
/// return NULL with *failed set instead; what that synthesis had allocated is then leaked. A
/// cancelled synthesis returns its utterance with *failed clear. Not reentrant (cst_errjmp is
/// one global), which is fine for the one synthesis thread.
static inline cst_utterance *narrator_flite_synth_text(const char *text, cst_voice *voice, int *failed) {
    jmp_buf jump;
    jmp_buf *previous = cst_errjmp;
    *failed = 0;
    cst_errjmp = &jump;
    if (setjmp(jump) != 0) {
        cst_errjmp = previous;
        *failed = 1;
        return NULL;
    }
    cst_utterance *utterance = flite_synth_text(text, voice);
    cst_errjmp = previous;
    return utterance;
}

/// Sets the features a job's prosody changes on `voice`. Flite keeps a feature's name as the
/// pointer it was given, so names must outlive the voice: here they are C literals, where a
/// string passed from Swift would be a temporary copy, freed as soon as the call returns.
static inline void narrator_flite_set_prosody(cst_voice *voice, float duration_stretch, float f0_mean, float f0_stddev) {
    flite_feat_set_float(voice->features, "duration_stretch", duration_stretch);
    flite_feat_set_float(voice->features, "int_f0_target_mean", f0_mean);
    flite_feat_set_float(voice->features, "int_f0_target_stddev", f0_stddev);
}

/// The clustergen database of a voice (NULL for a diphone voice): its own F0 mean lives there.
static inline const cst_cg_db *narrator_flite_cg_db(const cst_voice *voice) {
    const cst_val *value = flite_get_param_val(voice->features, "cg_db", NULL);
    return value ? val_cg_db(value) : NULL;
}
#endif
