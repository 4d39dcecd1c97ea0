"""libFLAC's decode of each FLAC file, for test/audio/flac.test.ts: `flac -d` (Debian's flac) writes WAV, which
libsndfile (python3-soundfile) reads as float32, integer / 2^(bits-1) (WAV holds the samples left-justified, so this
is exact for every depth; 32-bit samples round to float32 as libsndfile rounds them). Writes `<out>/<name>.f32`
(interleaved [frames, channels]) and prints one JSON object per file: ok, frames, channels, sample_rate, or error
(flac -d's message when it refuses the stream).
Usage: /usr/bin/python3 test/audio/flac-reference.py <out dir> <file.flac>...
"""
import json, os, subprocess, sys
import soundfile as sf

out = sys.argv[1]
for path in sys.argv[2:]:
    wav = os.path.join(out, os.path.basename(path) + '.wav')
    r = subprocess.run(['flac', '-d', '--silent', '--force', '-o', wav, path], capture_output=True)
    if r.returncode != 0:
        msg = ' '.join(l.strip() for l in r.stderr.decode(errors='replace').splitlines() if 'ERROR' in l)
        print(json.dumps({'file': path, 'ok': False, 'error': msg}))
        continue
    data, rate = sf.read(wav, dtype='float32', always_2d=True)
    os.remove(wav)
    data.astype('<f4').tofile(os.path.join(out, os.path.basename(path) + '.f32'))
    print(json.dumps({'file': path, 'ok': True, 'frames': data.shape[0], 'channels': data.shape[1], 'sample_rate': rate}))
