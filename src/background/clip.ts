/** A text cut to `chars` characters, an ellipsis saying it was cut. */
export function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
