/** Spec §8: what the fingerprint rejects with when neither the audio nor the canvas source works. */
export const fingerprintFailure = "Failed to generate the finger print of this browser";

/** Spec §9: one channel of 44,100 samples; the sum of |sample| over indexes 4,500 to 5,000. */
const sampleCount = 44_100;
const firstSample = 4_500;
const endSample = 5_000;

/** Some browsers never finish rendering in a background tab; give up rather than wait forever. */
const audioTimeoutMs = 2_000;

/**
 * This browser's fingerprint: the audio stack's rendering of a compressed oscillator and the
 * canvas' rendering of text and shapes, hashed into one value. Either source alone suffices.
 */
export async function computeFingerprint(): Promise<string> {
  const [audio, canvas] = await Promise.allSettled([
    audioFingerprint(),
    // A throw inside the executor settles as a rejection, like the audio side's.
    new Promise<string>((resolve) => resolve(canvasFingerprint())),
  ]);
  if (audio.status === "rejected" && canvas.status === "rejected") {
    throw new Error(fingerprintFailure);
  }
  const part = (result: PromiseSettledResult<string>) =>
    result.status === "fulfilled" ? result.value : "";
  return hash64(`audio:${part(audio)};canvas:${part(canvas)}`);
}

export async function audioFingerprint(): Promise<string> {
  const context = new OfflineAudioContext(1, sampleCount, sampleCount);
  const oscillator = context.createOscillator();
  oscillator.type = "triangle";
  oscillator.frequency.value = 10_000;
  const compressor = context.createDynamicsCompressor();
  compressor.threshold.value = -50;
  compressor.knee.value = 40;
  compressor.ratio.value = 12;
  compressor.attack.value = 0;
  compressor.release.value = 0.25;
  oscillator.connect(compressor);
  compressor.connect(context.destination);
  oscillator.start(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("audio rendering timed out")), audioTimeoutMs);
  });
  try {
    const rendered = await Promise.race([context.startRendering(), timedOut]);
    const samples = rendered.getChannelData(0);
    let sum = 0;
    for (let index = firstSample; index < endSample; index++) sum += Math.abs(samples[index] ?? 0);
    return String(sum);
  } finally {
    clearTimeout(timer);
  }
}

export function canvasFingerprint(): string {
  const canvas = document.createElement("canvas");
  canvas.width = 240;
  canvas.height = 60;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2d canvas");
  context.textBaseline = "top";
  context.font = "16px Arial, sans-serif";
  context.fillStyle = "#f60";
  context.fillRect(110, 4, 70, 24);
  context.fillStyle = "#069";
  context.fillText("Agency sign-in 663, \u00e1\u00df\u2713", 4, 10);
  context.fillStyle = "rgba(40, 160, 90, 0.6)";
  context.beginPath();
  context.arc(200, 36, 18, 0, Math.PI * 2);
  context.fill();
  return hash64(canvas.toDataURL());
}

/**
 * 64 bits of FNV-1a over UTF-16 code units, as 16 hex digits. Not a cryptographic hash, and it
 * need not be: it condenses renderings that are public anyway, and works without SubtleCrypto
 * (which plain-http deployments lack).
 */
export function hash64(text: string): string {
  let low = 0x811c9dc5;
  let high = 0xcbf29ce4;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ (unit + index), 0x01000193);
  }
  return hex32(high) + hex32(low);
}

function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0");
}
