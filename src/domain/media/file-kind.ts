// What an upload is, read from its bytes (never from the client): the MIME type (file-type for
// binary formats; SVG and plain text recognised here, which file-type does not), the kind the
// `type` filter uses, and an image's dimensions (sharp's metadata; SVG from its attributes).
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { MediaKind } from '../schemas/media.js';

export const MAX_PIXELS = 50_000_000;
const RASTER = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export async function detectType(head: Buffer, text: boolean): Promise<string> {
  if (text && looksLikeSvg(head)) return 'image/svg+xml';
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  return text ? 'text/plain' : 'application/octet-stream';
}

export function kindOf(contentType: string): MediaKind {
  if (RASTER.has(contentType) || contentType === 'image/svg+xml') return 'image';
  if (contentType === 'application/pdf' || contentType === 'text/plain') return 'document';
  return 'other';
}

export const isRaster = (contentType: string) => RASTER.has(contentType);

/** Text whose first element (after an XML declaration, comments and a doctype) is `<svg`. */
function looksLikeSvg(head: Buffer): boolean {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const start = text.replace(/^\s*(<\?xml[\s\S]*?\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  return /^<svg[\s>]/i.test(start);
}

export type Dimensions = { width: number; height: number } | { width: null; height: null };

/** An SVG's size from its `width`/`height` attributes (unitless or px), else its viewBox, else null. */
export function svgDimensions(head: Buffer): Dimensions {
  const tag = /<svg\b[^>]*>/i.exec(head.toString('utf8'))?.[0] ?? '';
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)\\s*(px)?\\s*["']`, 'i').exec(tag)?.[1];
  const width = Number(attribute('width'));
  const height = Number(attribute('height'));
  if (width > 0 && height > 0) return { width: Math.round(width), height: Math.round(height) };
  const box = /\sviewBox\s*=\s*["']\s*([-0-9.]+)[\s,]+([-0-9.]+)[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*["']/i.exec(tag);
  if (box && Number(box[3]) > 0 && Number(box[4]) > 0) return { width: Math.round(Number(box[3])), height: Math.round(Number(box[4])) };
  return { width: null, height: null };
}

/** A raster image's size from its header; undefined when the bytes do not read as that image. */
export async function rasterDimensions(head: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const meta = await sharp(head, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!meta.width || !meta.height) return undefined;
    return { width: meta.width, height: meta.pageHeight && meta.pages && meta.pages > 1 ? meta.pageHeight : meta.height };
  } catch {
    return undefined;
  }
}
