import type { Category } from "~/lib/categories";
import type { ProjectRecord } from "~/lib/project-types";

export interface DemoPost {
  title: string;
  slug: string;
  category: Category;
  excerpt: string | null;
  content: string;
  published: boolean;
  featured: boolean;
  daysAgo: number;
  /** A shipped placeholder under public/images/posts. */
  featuredImageUrl?: string | null;
  /** Its alt text: a published post needs one for every image it shows. */
  featuredImageAlt?: string | null;
}

export const DEMO_POSTS: DemoPost[] = [
  {
    title: "Starting Each Week with Purpose",
    slug: "starting-each-week-with-purpose",
    category: "Faith",
    featuredImageUrl: "/images/posts/faith-800.webp",
    featuredImageAlt: "Purple banner with the word Faith",
    excerpt: "A short Monday routine that keeps priorities straight when the calendar fills up.",
    content:
      "Every Monday I block the first thirty minutes before any meeting.\n\nI write down three things I am grateful for, one person I want to encourage this week, and the single outcome that would make the week worthwhile.\n\nIt is a small habit, but it has shaped how I lead teams: purpose first, tasks second.",
    published: true,
    featured: true,
    daysAgo: 2,
  },
  {
    title: "A Simple Budget That Survives Real Life",
    slug: "a-simple-budget-that-survives-real-life",
    category: "Finance",
    featuredImageUrl: "/images/posts/finance-800.webp",
    featuredImageAlt: "Green banner with the word Finance",
    excerpt: "Three accounts, one rule, and a monthly review that takes fifteen minutes.",
    content:
      "Most budgets fail because they are too detailed to keep up.\n\nI use three accounts: bills, spending and saving. Income lands in bills first, a fixed amount moves to saving on payday, and whatever remains is free to spend.\n\nOnce a month I review the numbers with a cup of coffee and adjust one thing, never more.",
    published: true,
    featured: false,
    daysAgo: 6,
  },
  {
    title: "Walking Meetings for Busy Product Managers",
    slug: "walking-meetings-for-busy-product-managers",
    category: "Fitness",
    featuredImageUrl: "/images/posts/fitness-800.webp",
    featuredImageAlt: "Red banner with the word Fitness",
    excerpt: null,
    content:
      "One-on-ones do not need a conference room.\n\nTaking them outside adds several thousand steps to my day, and the conversations are more candid when we walk side by side.\n\nBring a phone for notes, pick a loop that takes twenty-five minutes, and be back before the next call.",
    published: true,
    featured: false,
    daysAgo: 10,
  },
  {
    title: "Board Games That Teach Systems Thinking",
    slug: "board-games-that-teach-systems-thinking",
    category: "Fun",
    featuredImageUrl: "/images/posts/fun-800.webp",
    featuredImageAlt: "Orange banner with the word Fun",
    excerpt: "Draft: a list of favourite games and what each one teaches about trade-offs.",
    content: "Notes for a future post about cooperative board games and feedback loops.",
    published: false,
    featured: false,
    daysAgo: 1,
  },
  {
    title: "Making Time for the People Who Matter",
    slug: "making-time-for-the-people-who-matter",
    category: "Family",
    featuredImageUrl: "/images/posts/family-800.webp",
    featuredImageAlt: "Pink banner with the word Family",
    excerpt: "Protecting family dinners in a remote-work world.",
    content:
      "Remote work erased my commute and, for a while, the boundary between work and home.\n\nNow dinner is a fixed appointment in my calendar, visible to my team, and I treat it like any other commitment.\n\nThe result: fewer late messages and more stories around the table.",
    published: true,
    featured: false,
    daysAgo: 14,
  },
  {
    title: "Leading by Serving: Lessons from Volunteering",
    slug: "leading-by-serving-lessons-from-volunteering",
    category: "Figurehead",
    featuredImageUrl: "/images/posts/figurehead-800.webp",
    featuredImageAlt: "Grey banner with the word Figurehead",
    excerpt: "What organising a community food drive taught me about stakeholder management.",
    content:
      "Volunteers cannot be told what to do; they have to be invited into a mission.\n\nRunning a community food drive taught me to explain the why, make the first step small, and thank people publicly.\n\nThose lessons made me a better product manager than any certification did.",
    published: true,
    featured: false,
    daysAgo: 21,
  },
];

export const DEMO_PROJECTS: ProjectRecord[] = [
  {
    title: "Client Onboarding Portal",
    description:
      "A self-service portal that cut onboarding time for a consulting practice from two weeks to three days, with document checklists and progress tracking.",
    imageUrl: "/images/projects/onboarding-portal-800.webp",
    type: "web",
    url: "https://example.com/onboarding-portal",
    featured: true,
  },
  {
    title: "Training Knowledge Base",
    description: "A searchable knowledge base with guided learning paths for IT training customers.",
    imageUrl: "/images/projects/knowledge-base-800.webp",
    type: "web",
    url: "https://example.com/knowledge-base",
    featured: false,
  },
  {
    title: "Small Business Website Launch Kit",
    description: "A reusable website starter for local businesses: bookings, contact forms and analytics in a day.",
    imageUrl: "/images/projects/launch-kit-800.webp",
    type: "web",
    url: null,
    featured: false,
  },
  {
    title: "ERP Migration Program Plan",
    description: "Program roadmap and cut-over plan for a regional distributor's ERP migration.",
    imageUrl: null,
    type: "other",
    url: null,
    featured: false,
  },
  {
    title: "Agile Coaching Workshop Series",
    description: "A six-part workshop series for teams moving from waterfall to Scrum.",
    imageUrl: null,
    type: "other",
    url: null,
    featured: false,
  },
];
