import { execFile } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, failOnCspViolations } from './browser.ts';

const run = promisify(execFile);

/**
 * A video of `png` (a QR code) on white, as Chromium's fake camera reads it: Y4M, 640 × 480, 10 fps, played in a
 * loop for as long as the camera is on. The code comes slowly closer (200 to 440 px wide in 3 s), as a ticket held
 * up at the door does: at a single fixed size some codes defeat the decoder frame after frame.
 */
export async function qrVideo(png: Buffer, dir: string): Promise<string> {
  return qrSequenceVideo([png], dir, { secondsEach: 3, name: 'qr' });
}

/** `scale` and `pad` filters of one code coming closer over `seconds` (200 to 440 px wide), then as YUV. */
const approaching = (seconds: number) =>
  [
    `scale=w='trunc((200+${240 / seconds}*t)/2)*2':h=-2:eval=frame`,
    'pad=640:480:(ow-iw)/2:(oh-ih)/2:white:eval=frame',
    'format=yuv420p',
  ].join(',');

const ffmpeg = (args: string[]) =>
  run('ffmpeg', ['-loglevel', 'error', '-y', ...args]).catch((error: Error) => {
    throw new Error(`ffmpeg could not make the camera video (apt-get install ffmpeg): ${error.message}`);
  });

/**
 * A camera video of several QR codes in turn, each coming closer for `secondsEach`, as a queue of holders shows
 * their tickets one after the other; with `gapSeconds`, an empty card between two holders (the next one stepping
 * up while the verdict is still on screen). Written to `<name>.y4m` in `dir`.
 */
export async function qrSequenceVideo(
  pngs: Buffer[],
  dir: string,
  {
    secondsEach = 1.5,
    gapSeconds = 0,
    name = 'fila',
  }: { secondsEach?: number; gapSeconds?: number; name?: string } = {},
): Promise<string> {
  const images = await Promise.all(
    pngs.map(async (png, i) => {
      const image = join(dir, `${name}-${i}.png`);
      await writeFile(image, png);
      return image;
    }),
  );
  const video = join(dir, `${name}.y4m`);
  const inputs = images.flatMap((image) => ['-loop', '1', '-t', String(secondsEach), '-i', image]);
  const each = images.map((_, i) => `[${i}:v]${approaching(secondsEach)},fps=10${gap(gapSeconds)}[v${i}]`);
  const joined = `${images.map((_, i) => `[v${i}]`).join('')}concat=n=${images.length}:v=1:a=0[out]`;
  await ffmpeg([
    ...inputs,
    ...['-filter_complex', [...each, joined].join(';'), '-map', '[out]', '-r', '10', '-f', 'yuv4mpegpipe', video],
  ]);
  return video;
}

/** A `tpad` filter adding `seconds` of white after a code (none for 0). */
const gap = (seconds: number) => (seconds > 0 ? `,tpad=stop_mode=add:stop_duration=${seconds}:color=white` : '');

/** A camera video of an empty white card: a camera on, with nothing to read. */
export async function blankVideo(dir: string, name = 'vazio'): Promise<string> {
  const video = join(dir, `${name}.y4m`);
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'color=c=white:s=640x480:r=10', '-t', '1'],
    ...['-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', video],
  ]);
  return video;
}

/**
 * Puts `next` in front of a camera browser launched with `camera`: Chromium reads the file again whenever a
 * page starts the camera anew, so what a page films changes at its next camera start.
 */
export async function showOnCamera(camera: string, next: string): Promise<void> {
  // A rename is atomic: a camera starting meanwhile reads either file whole, never half of one.
  await rename(next, camera);
}

/**
 * A Chromium of its own whose only camera films `video`. With `allowCamera: false` nobody answers the browser's
 * camera prompt, so the page is refused the camera as a visitor who says no would refuse it.
 */
export async function launchCameraBrowser(baseURL: string, video: string, { allowCamera = true } = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
      ...(allowCamera ? ['--use-fake-ui-for-media-stream'] : []),
    ],
  });
  return {
    /** A phone-sized page, logged in with `token`. */
    async newPage(token: string) {
      const context = await browser.newContext({
        baseURL,
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        storageState: { cookies: [], origins: [{ origin: baseURL, localStorage: [{ name: 'token', value: token }] }] },
      });
      context.setDefaultTimeout(10_000);
      context.setDefaultNavigationTimeout(30_000);
      await failOnCspViolations(context);
      return context.newPage();
    },
    close: () => browser.close(),
  };
}
