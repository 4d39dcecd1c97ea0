"""What the training reference gets from libsndfile for each file, read as fairseq2's AudioDecoder reads it
(docs/reference-pipeline.md §10): open the bytes, allocate SF_INFO.frames x channels floats, call sf_readf_float once
for all of them; an open error, a length it cannot allocate or a short read fails the row. Through Debian's
python3-soundfile (libsndfile 1.2). Prints one JSON object per file: ok, frames, declared, sample_rate, channels,
error; with --out DIR, also writes what it read as DIR/<name>.f32 (float32, interleaved [frames, channels]).
Usage: /usr/bin/python3 test/audio/training-read.py [--out DIR] <file>...
"""
import json, os, sys
import soundfile as sf

def training_read(path, out):
    try:
        f = sf.SoundFile(path)
    except Exception as e:
        return {'ok': False, 'error': f'open: {e}'}
    with f:
        n, ch = f.frames, f.channels
        info = {'declared': n, 'sample_rate': f.samplerate, 'channels': ch}
        if n * ch > 2 ** 31:
            return {'ok': False, **info, 'error': f'libsndfile declares {n} frames'}
        buf = sf._ffi.new('float[]', max(1, n * ch))
        got = sf._snd.sf_readf_float(f._file, buf, n)
        log = sf._ffi.string(sf._snd.sf_strerror(f._file)).decode()
        if got != n:
            return {'ok': False, **info, 'frames': got, 'error': f'short read: {got} of {n} frames ({log})'}
        if out:
            with open(os.path.join(out, os.path.basename(path) + '.f32'), 'wb') as w:
                w.write(sf._ffi.buffer(buf, n * ch * 4))
        return {'ok': True, **info, 'frames': got}

args = sys.argv[1:]
out = None
if args[:1] == ['--out']:
    out, args = args[1], args[2:]
for p in args:
    print(json.dumps({'file': p, **training_read(p, out)}))
