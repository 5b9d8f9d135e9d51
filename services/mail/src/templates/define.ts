import type { z } from 'zod';
import type { EmailAttachment } from '../domain/attachments.ts';
import { blocks, type SafeHtml } from './html.ts';
import { layoutHtml, layoutText } from './layout.ts';

/** What a template file writes: its data schema and the pieces of the message, all from that data. */
export interface TemplateSpec<S extends z.ZodType> {
  data: S;
  subject(data: z.infer<S>): string;
  /** The preview line inbox lists show after the subject. */
  preheader(data: z.infer<S>): string;
  /** The message body, plain text (the layout adds the footer). */
  text(data: z.infer<S>): string;
  /** The message body: blocks of HTML built with `html` or the layout's blocks (the layout adds header and footer). */
  body(data: z.infer<S>): SafeHtml[];
  attachments?(data: z.infer<S>): EmailAttachment[];
}

/**
 * A template ready to render: every part of the e-mail, the HTML and text versions both in the shared layout. `I` is
 * the data as queued, which may lack what later versions added with a default (e-mails queued before).
 */
export interface EmailTemplate<D = unknown, I = D> {
  data: z.ZodType<D, I>;
  subject(data: D): string;
  text(data: D): string;
  html(data: D): string;
  attachments(data: D): EmailAttachment[];
}

export function defineTemplate<S extends z.ZodType>(spec: TemplateSpec<S>): EmailTemplate<z.infer<S>, z.input<S>> {
  return {
    data: spec.data as z.ZodType<z.infer<S>, z.input<S>>,
    subject: (data) => spec.subject(data),
    text: (data) => layoutText(spec.text(data)),
    html: (data) =>
      layoutHtml({ title: spec.subject(data), preheader: spec.preheader(data), body: blocks(spec.body(data)) }),
    attachments: (data) => spec.attachments?.(data) ?? [],
  };
}
