import { readFile, rm } from 'node:fs/promises';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { File } from 'formidable';
import { AppError } from '../errors.ts';

export interface MultipartLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Answered (413) when a file or the whole form is over its limit. */
  tooLargeMessage: string;
  /** Answered (400) for any other malformed form. */
  invalidMessage: string;
}

/** Formidable's codes for a file or a form over its limits. */
const TOO_LARGE = new Set([1009, 1015, 1016]);

/**
 * Parses a multipart form on the routes that take files, within limits, answering every refusal in pt-BR. The files
 * land in temporary files: read them with `readUploads`, which also removes them.
 */
export function multipartBody(limits: MultipartLimits): Middleware {
  return koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      maxFiles: limits.maxFiles,
      maxFields: 20,
      maxFileSize: limits.maxFileBytes,
      maxTotalFileSize: limits.maxTotalBytes,
      allowEmptyFiles: false,
      minFileSize: 1,
    },
    onError(error) {
      const code = (error as { code?: number }).code;
      throw new AppError(
        code !== undefined && TOO_LARGE.has(code) ? 413 : 400,
        code !== undefined && TOO_LARGE.has(code) ? limits.tooLargeMessage : limits.invalidMessage,
      );
    },
  });
}

export interface Upload {
  filename: string;
  content: Buffer;
}

/** The uploaded files by field (the first one of a field sent twice); the temporary files are removed. */
export async function readUploads(ctx: Context): Promise<Record<string, Upload>> {
  const files = Object.entries(ctx.request.files ?? {}) as [string, File | File[]][];
  try {
    const uploads: Record<string, Upload> = {};
    for (const [field, value] of files) {
      const file = Array.isArray(value) ? value[0] : value;
      if (!file) continue;
      uploads[field] = {
        filename: (file.originalFilename ?? 'arquivo').slice(0, 255),
        content: await readFile(file.filepath),
      };
    }
    return uploads;
  } finally {
    const all = files.flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
    await Promise.all(all.map((file) => rm(file.filepath, { force: true })));
  }
}
