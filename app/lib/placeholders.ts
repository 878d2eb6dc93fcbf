/**
 * Editable sentences with a value filled in where the owner wrote its placeholder ("{name}", "{year}").
 * A placeholder whose value is empty is dropped with the comma or spaces before it ("Thank you, {name}!"
 * with no name reads "Thank you!").
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/([,\s]*)\{(\w+)\}/g, (whole, before: string, name: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name] ?? "";
    return value ? `${before}${value}` : "";
  });
}

/** The placeholders a text uses that are not among `known` (for a form's message). */
export function unknownPlaceholders(text: string, known: readonly string[]): string[] {
  return [...text.matchAll(/\{(\w*)\}/g)].map((match) => match[1] ?? "").filter((name) => !known.includes(name));
}
