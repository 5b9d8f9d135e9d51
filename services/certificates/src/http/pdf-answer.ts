import type { Context } from 'koa';

/** A certificate's PDF as a download, never cached by the way. */
export function sendPdf(ctx: Context, file: { filename: string; pdf: Buffer }): void {
  ctx.type = 'application/pdf';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
  ctx.body = file.pdf;
}
