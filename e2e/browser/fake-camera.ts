import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, failOnCspViolations } from './support.ts';

const run = promisify(execFile);

/**
 * A video of `png` (a QR code) on white, as Chromium's fake camera reads it: Y4M, 640 × 480, 10 fps, played in a
 * loop for as long as the camera is on. The code comes slowly closer (200 to 440 px wide in 3 s), as a ticket held
 * up at the door does: at a single fixed size some codes defeat the decoder frame after frame.
 */
export async function qrVideo(png: Buffer, dir: string): Promise<string> {
  const image = join(dir, 'qr.png');
  const video = join(dir, 'qr.y4m');
  await writeFile(image, png);
  const approaching = [
    "scale=w='trunc((200+80*t)/2)*2':h=-2:eval=frame",
    'pad=640:480:(ow-iw)/2:(oh-ih)/2:white:eval=frame',
    'format=yuv420p',
  ].join(',');
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-loop', '1', '-i', image],
    ...['-vf', approaching, '-r', '10', '-t', '3', '-f', 'yuv4mpegpipe', video],
  ]).catch((error: Error) => {
    throw new Error(`ffmpeg could not make the camera video (apt-get install ffmpeg): ${error.message}`);
  });
  return video;
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
      await failOnCspViolations(context);
      return context.newPage();
    },
    close: () => browser.close(),
  };
}
