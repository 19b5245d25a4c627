/**
 * The exchange refuses a message larger than 10 MB. We refuse it first, before anything is sent,
 * and say how large it is and which attachment to shrink — a clerk can act on that; a network
 * error after a 10 MB upload helps no one.
 */
export const MESSAGE_LIMIT_BYTES = 10 * 1024 * 1024;

export interface AttachmentSize {
  /** FHIR path of the attachment, e.g. `Claim.supportingInfo[2].valueAttachment`. */
  path: string;
  title?: string;
  contentType?: string;
  bytes: number;
}

/** UTF-8 length without allocating (lib/fhir also runs in the browser: no Buffer). */
function utf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export class MessageTooLargeError extends Error {
  override name = "MessageTooLargeError";
  constructor(
    readonly bytes: number,
    readonly limitBytes: number,
    /** The largest attachment, when the message has one. */
    readonly attachment?: AttachmentSize,
  ) {
    super(
      `The message is ${mb(bytes)}; the national exchange accepts at most ${mb(limitBytes)}.` +
        (attachment
          ? ` Shrink the attachment ${attachment.title ? `"${attachment.title}" ` : ""}(${attachment.path}, ${mb(attachment.bytes)}${attachment.contentType ? `, ${attachment.contentType}` : ""}) — scan it at a lower resolution or send fewer pages — and submit again.`
          : " It has no attachment to shrink: split it into smaller requests."),
    );
  }
}

/** Every Attachment with inline data in a resource tree, with its path and encoded size. */
export function attachmentSizes(value: unknown, path: string): AttachmentSize[] {
  const found: AttachmentSize[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${at}[${i}]`));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.data === "string" && (typeof record.contentType === "string" || typeof record.title === "string")) {
      found.push({
        path: at,
        bytes: utf8Length(record.data),
        ...(typeof record.title === "string" ? { title: record.title } : {}),
        ...(typeof record.contentType === "string" ? { contentType: record.contentType } : {}),
      });
    }
    for (const [key, child] of Object.entries(record)) if (key !== "data") walk(child, `${at}.${key}`);
  };
  walk(value, path);
  return found;
}

/** Size of the serialized message; throws MessageTooLargeError over the limit. */
export function assertMessageSize(bundle: { entry?: { resource?: unknown }[] }, limitBytes = MESSAGE_LIMIT_BYTES): number {
  const bytes = utf8Length(JSON.stringify(bundle));
  if (bytes <= limitBytes) return bytes;
  const attachments = (bundle.entry ?? []).flatMap((entry) => {
    const resource = entry.resource as { resourceType?: string } | undefined;
    return resource ? attachmentSizes(resource, resource.resourceType ?? "Resource") : [];
  });
  const largest = attachments.sort((a, b) => b.bytes - a.bytes)[0];
  throw new MessageTooLargeError(bytes, limitBytes, largest);
}
