/** The element an event's target is, or null (the document, the window, a text node): the page scripts' delegated listeners start from it. */
export function elementOf(target: EventTarget | null): Element | null {
  return target instanceof Element ? target : null;
}

/** The id of the message that describes why a form control is invalid (the one error style, components/forms.tsx). */
export const errorIdOf = (controlId: string) => `${controlId}-error`;
