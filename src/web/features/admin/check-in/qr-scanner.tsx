/**
 * The phone's camera reading check-in QR codes. The standard BarcodeDetector where the browser has it for QR
 * codes; elsewhere (Safari on iPhone, Firefox, Chromium on Linux) jsQR, a decoder in plain JavaScript, loaded only
 * here, from this site's own assets, when the camera is first turned on. A code read is handed on once; the same
 * code seen again within a few seconds (the family still holds the phone up) is ignored.
 */
import { useEffect, useRef, useState } from "react";
import { parseCheckinCode } from "../../../../shared/checkin";
import { Button } from "../../../components/ui/button";

type Decode = (source: HTMLVideoElement, canvas: HTMLCanvasElement) => Promise<string | null>;

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
}

const SCAN_EVERY_MS = 120;
const SAME_CODE_PAUSE_MS = 4_000;
/** Frames are read at most this wide: enough for a QR held at arm's length, cheap on a slow phone. */
const MAX_FRAME_WIDTH = 640;

async function makeDecoder(): Promise<Decode> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  const formats: string[] = Native ? ((await Native.getSupportedFormats?.().catch(() => [])) ?? []) : [];
  if (Native && formats.includes("qr_code")) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import("jsqr");
  return async (video, canvas) => {
    const scale = Math.min(1, MAX_FRAME_WIDTH / (video.videoWidth || MAX_FRAME_WIDTH));
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (width === 0 || height === 0) return null;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    if (!context) return null;
    context.drawImage(video, 0, 0, width, height);
    const image = context.getImageData(0, 0, width, height);
    return jsQR(image.data, width, height, { inversionAttempts: "dontInvert" })?.data ?? null;
  };
}

function cameraError(err: unknown): string {
  const name = err instanceof DOMException ? err.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "Kameran fick inte användas. Tillåt kameran för sidan i webbläsaren, eller skriv koden.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError")
    return "Ingen kamera hittades. Skriv koden i stället.";
  if (name === "NotReadableError") return "Kameran används av en annan app. Stäng den och försök igen.";
  return "Kameran kunde inte startas. Skriv koden i stället.";
}

export interface QrScannerProps {
  /** A valid check-in code read from a QR. */
  onCode: (code: string) => void;
  /** Something that is not a check-in code was read (another QR). */
  onOther: (text: string) => void;
}

export function QrScanner({ onCode, onOther }: QrScannerProps) {
  const [on, setOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const handlers = useRef({ onCode, onOther });
  useEffect(() => {
    handlers.current = { onCode, onOther };
  });

  useEffect(() => {
    if (!on) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const last = { text: "", at: 0 };
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the camera is an external system: "starting" is shown from the moment it is asked for.
    setStarting(true);
    void (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new DOMException("no camera", "NotFoundError");
        const [media, decode] = await Promise.all([
          navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false }),
          makeDecoder(),
        ]);
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play().catch(() => undefined);
        setStarting(false);
        const tick = async () => {
          if (stopped || !video.current || !canvas.current) return;
          try {
            const text = video.current.readyState >= 2 ? await decode(video.current, canvas.current) : null;
            const now = performance.now();
            if (text && !(text === last.text && now - last.at < SAME_CODE_PAUSE_MS)) {
              last.text = text;
              last.at = now;
              const code = parseCheckinCode(text);
              if (code) handlers.current.onCode(code);
              else handlers.current.onOther(text);
            } else if (text) {
              last.at = now;
            }
          } catch {
            // A frame that could not be read: the next one will do.
          }
          if (!stopped) timer = setTimeout(() => void tick(), SCAN_EVERY_MS);
        };
        void tick();
      } catch (err) {
        if (!stopped) {
          setError(cameraError(err));
          setOn(false);
          setStarting(false);
        }
      }
    })();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [on]);

  return (
    <div className="checkin-scanner">
      <Button
        variant={on ? "outlined" : "primary"}
        size="large"
        loading={starting && on}
        onClick={() => {
          setError(null);
          setOn((v) => !v);
        }}
      >
        {on ? "Stäng kameran" : "Skanna QR-kod"}
      </Button>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {on && (
        <div className="checkin-camera">
          <video ref={video} playsInline muted aria-label="Kamerabild: håll QR-koden i rutan" />
          <canvas ref={canvas} hidden />
        </div>
      )}
    </div>
  );
}
