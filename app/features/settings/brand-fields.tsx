import { useState } from "react";
import type { FieldMetadata } from "@conform-to/react";
import { FieldError, type ControlProps } from "~/components/forms";
import { Input } from "~/components/ui/input";
import { accentPalette, firstContrastFailure, normalizeHex, oklchToHex, THEME_COLOURS } from "~/lib/accent-colour";
import { errorIdOf } from "~/lib/dom";
import { FONT_PAIRING_IDS, FONT_PAIRINGS } from "~/lib/font-pairings";

/** The theme's own primary colour (app.css, light theme), shown while no accent is set. */
const THEME_PRIMARY = oklchToHex(THEME_COLOURS.light.primary);

/**
 * The accent colour as a hex field (what is sent) with a colour picker beside it that fills it in,
 * and a sample button and link in the colour once it reads well. Without JavaScript the hex can be typed.
 */
export function AccentColourInput({ initialValue, ...props }: ControlProps & { initialValue: string }) {
  const [value, setValue] = useState(initialValue);
  const hex = normalizeHex(value);
  const sample = hex && !firstContrastFailure(hex) ? accentPalette(hex).light : null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <input
        type="color"
        aria-label="Pick the accent colour"
        value={hex ?? THEME_PRIMARY}
        onChange={(event) => setValue(event.target.value)}
        className="h-9 w-12 cursor-pointer rounded-md border bg-background p-1"
      />
      <Input
        {...props}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder={THEME_PRIMARY}
        spellCheck={false}
        autoComplete="off"
        className="w-36 font-mono"
      />
      {sample ? (
        // A preview only: inline colours (style-src allows them) so it follows the field as it is typed.
        <span className="flex items-center gap-3 text-sm" aria-hidden>
          <span className="rounded-md px-3 py-1.5 font-medium" style={{ background: sample.primary, color: sample.primaryForeground }}>
            Button
          </span>
          <span className="underline" style={{ color: sample.primary }}>
            Link
          </span>
        </span>
      ) : null}
    </div>
  );
}

/** The three pairings and the system fonts, as radio buttons. */
export function FontPairingChoice({ field, formId, initialValue }: { field: FieldMetadata<string>; formId: string; initialValue: string }) {
  const errorId = errorIdOf(`${formId}-fontPairing`);
  return (
    <fieldset className="grid gap-2" aria-describedby={field.errors?.length ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">Fonts</legend>
      {FONT_PAIRING_IDS.map((id) => (
        <div key={id} className="flex items-center gap-2">
          <input
            type="radio"
            id={`${formId}-fontPairing-${id}`}
            name={field.name}
            value={id}
            defaultChecked={initialValue === id}
            className="size-4 accent-primary"
          />
          <label htmlFor={`${formId}-fontPairing-${id}`} className="text-sm">
            {FONT_PAIRINGS[id].label}
          </label>
        </div>
      ))}
      <p className="text-sm text-muted-foreground">Served from this site (no font service is asked); only the chosen fonts are loaded.</p>
      <FieldError id={errorId} errors={field.errors} />
    </fieldset>
  );
}
