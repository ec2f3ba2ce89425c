/**
 * The file name a download's Content-Disposition names (`filename*=UTF-8''…` first, then
 * `filename="…"`), or `fallback` when the header is missing or names none.
 */
export function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: try the plain form.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  // Only the last path segment: a header must not pick a folder.
  return name.split(/[/\\]/).pop() || fallback;
}

/** Hands a downloaded body to the browser as a file of this name. */
export async function saveResponse(response: Response, fallback: string): Promise<string> {
  const name = fileNameOf(response, fallback);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    URL.revokeObjectURL(url);
  }
  return name;
}
