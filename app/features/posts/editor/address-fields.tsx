import type { FieldMetadata } from "@conform-to/react";
import { FormField } from "~/components/forms";
import { Input } from "~/components/ui/input";
import { CATEGORIES, postPath, type Category } from "~/lib/categories";

interface Props {
  category: Category;
  slug: string;
  fields: { category: FieldMetadata<unknown>; slug: FieldMetadata<unknown> };
  onCategoryChange: (category: Category) => void;
  onSlugChange: (slug: string) => void;
}

/** Edit mode's 'Category' and 'URL slug': the post's address; the old one keeps answering (301). */
export function AddressFields({ category, slug, fields, onCategoryChange, onSlugChange }: Props) {
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
      <FormField field={fields.category} label="Category" controlled select>
        {(props) => (
          <select
            {...props}
            value={category}
            onChange={(e) => {
              const next = CATEGORIES.find((c) => c === e.target.value);
              if (next) onCategoryChange(next);
            }}
            className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        field={fields.slug}
        label="URL slug"
        controlled
        hint={
          <p className="text-sm break-all text-muted-foreground">
            Address: {postPath(category, slug || "…")}. The old address keeps working.
          </p>
        }
      >
        {(props) => (
          <Input {...props} value={slug} autoCapitalize="none" spellCheck={false} onChange={(e) => onSlugChange(e.target.value)} />
        )}
      </FormField>
    </div>
  );
}
