/**
 * A multipart/form-data body parsed by hand (no dependency), so the scripted server checks what
 * a real client puts on the wire: each part's name, filename, content type and bytes. One pass
 * over the body with Buffer.indexOf.
 */

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The boundary from a `multipart/form-data; boundary=…` content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function headerParam(header: string, param: string): string | undefined {
  const match = new RegExp(`;\\s*${param}="([^"]*)"`, 'i').exec(header) ?? new RegExp(`;\\s*${param}=([^;\\s]*)`, 'i').exec(header);
  return match?.[1];
}

/** The parts of a multipart body; throws with a readable reason when the framing is wrong. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('multipart: no boundary in the body');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts; // the closing delimiter
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('multipart: a boundary not followed by CRLF');
    const headerEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headerEnd < 0) throw new Error('multipart: a part without the blank line after its headers');
    const headers = body.subarray(at + 2, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new Error('multipart: the body ends without its closing boundary');
    const disposition = headers.find((h) => /^content-disposition:/i.test(h));
    const name = disposition && headerParam(disposition, 'name');
    if (!disposition || !/^content-disposition:\s*form-data/i.test(disposition) || name === undefined) throw new Error('multipart: a part without Content-Disposition: form-data; name=…');
    const type = headers.find((h) => /^content-type:/i.test(h));
    parts.push({ name, filename: headerParam(disposition, 'filename'), contentType: type?.replace(/^content-type:\s*/i, '').trim(), data: body.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
}
