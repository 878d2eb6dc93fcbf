/** The seven categories of the 7 Fs Framework, in the order the site shows them (SPEC §3). */
export const CATEGORIES = ["Faith", "Finance", "Fitness", "Fun", "Friends", "Family", "Figurehead"] as const;

export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_DESCRIPTIONS: Record<Category, string> = {
  Faith: "Exploring spirituality, beliefs, and personal growth",
  Finance: "Money management, investments, and financial wisdom",
  Fitness: "Health, exercise, and wellness journey",
  Fun: "Hobbies, entertainment, and enjoying life",
  Friends: "Relationships, connections, and community",
  Family: "Family life, parenting, and loved ones",
  Figurehead: "Giving back, leadership, and making a difference",
};

// The blog data may spell the fifth category 'Friendship'; the interface and routes use 'Friends'.
const ALIASES: Record<string, Category> = { friendship: "Friends" };

/** Reads a category in any letter case, or its data spelling; null when it is not one of the seven. */
export function parseCategory(value: string): Category | null {
  const lower = value.trim().toLowerCase();
  const found = CATEGORIES.find((c) => c.toLowerCase() === lower);
  return found ?? ALIASES[lower] ?? null;
}

export function categoryPath(category: Category): string {
  return `/7fs/${category}`;
}

export function postPath(category: Category, slug: string): string {
  return `/7fs/${category}/${slug}`;
}
