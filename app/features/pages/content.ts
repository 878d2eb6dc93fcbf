// The public pages' demo content (SPEC §2), plausible where the spec leaves it open. The admin edits it in the
// database, seeded from here once with SEED_DEMO_CONTENT (testimonials, recent roles, About and home lists);
// only the hero mock-ups are read from here at render time.

export const CERTIFICATIONS = [
  "Project Management Professional (PMP)",
  "Certified ScrumMaster (CSM)",
  "SAFe 6 Product Owner / Product Manager (POPM)",
  "ITIL 4 Foundation",
  "AWS Certified Cloud Practitioner",
] as const;

export const EXPERTISE = [
  {
    title: "Product Management",
    description: "Discovery, roadmaps and outcome-driven backlogs that keep teams building what customers actually need.",
  },
  {
    title: "Project Management",
    description: "Predictable delivery with clear scope, honest status reporting and risks handled before they become issues.",
  },
  {
    title: "Program Management",
    description: "Coordinating several teams and vendors toward one business outcome, with dependencies made visible.",
  },
  {
    title: "Application Development",
    description: "Full-stack web applications in TypeScript and React, from prototype to production and beyond.",
  },
] as const;

export const ABOUT_INTRO =
  "I am a product and project leader who still enjoys writing code. I have delivered healthcare systems, grown an enterprise SaaS product, and now run a consulting agency and a training business.";

export const EDUCATION = [
  { degree: "M.S. Information Systems Management", school: "University of Maryland Global Campus", year: "2016" },
  { degree: "B.S. Business Administration, Information Technology", school: "Georgia State University", year: "2011" },
] as const;

export const SKILLS = [
  "Product strategy & roadmapping",
  "Agile delivery (Scrum, Kanban, SAFe)",
  "Stakeholder management",
  "Requirements & user stories",
  "Risk & change management",
  "Vendor management",
  "Budgeting & forecasting",
  "Full-stack web development",
  "Technical writing & training",
] as const;

export const TOOLS = [
  "Jira",
  "Confluence",
  "Azure DevOps",
  "Microsoft Project",
  "Smartsheet",
  "Figma",
  "Miro",
  "Power BI",
  "TypeScript",
  "React",
  "Node.js",
  "PostgreSQL",
  "Git & GitHub",
] as const;

/** A demo job of the Recent Roles timeline ("role" in code means a user's permission role, lib/roles.ts). */
export interface Position {
  title: string;
  company: string;
  period?: string;
  location?: string;
  description: string;
  bullets?: readonly string[];
}

export const POSITIONS: readonly Position[] = [
  {
    title: "Technical Product Manager",
    company: "Enterprise SaaS Platform",
    period: "02/2022 – 07/2025",
    location: "Remote, USA",
    description:
      "Owned the roadmap for a B2B workflow platform used by more than 400 organisations, bridging customers, engineering and leadership.",
    bullets: [
      "Led discovery and delivery for integrations that grew enterprise revenue by 28%",
      "Introduced quarterly outcome planning across four engineering teams",
      "Cut the average cycle time from idea to release from 9 to 4 weeks",
    ],
  },
  {
    title: "System Project Consultant",
    company: "Regional Healthcare Network",
    period: "06/2019 – 01/2022",
    location: "Atlanta, GA",
    description: "Managed system implementation projects across clinical and business units, from requirements to go-live.",
    bullets: [
      "Delivered an EHR module roll-out to 12 clinics on time and under budget",
      "Ran vendor selection and contract negotiation for a scheduling platform",
    ],
  },
  {
    title: "Owner",
    company: "Digital consulting agency",
    description:
      "Founded a digital consulting practice helping small and mid-sized businesses plan, build and launch web applications and IT projects.",
    bullets: ["Websites, client portals and automation for local businesses", "Fractional product and project leadership"],
  },
  {
    title: "Owner",
    company: "Training and knowledge-base business",
    description:
      "Runs a training business with a public knowledge base: courses and guides on project management, agile delivery and everyday IT skills.",
  },
];

export interface Testimonial {
  name: string;
  /** The person's job title. */
  position: string;
  company?: string;
  date: string;
  text: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: "Sarah Mitchell",
    position: "VP of Engineering",
    company: "Enterprise SaaS Platform",
    date: "June 2025",
    text: "One of the rare product managers who is equally comfortable in a customer workshop and an architecture review. Our teams shipped more, with less drama.",
  },
  {
    name: "David Chen",
    position: "Senior Software Engineer",
    company: "Enterprise SaaS Platform",
    date: "March 2025",
    text: "Requirements were always clear, priorities never changed mid-sprint without a reason, and the why behind every feature was written down. A joy to build with.",
  },
  {
    name: "Angela Brooks",
    position: "Director of Clinical Operations",
    company: "Regional Healthcare Network",
    date: "December 2021",
    text: "Our EHR roll-out touched twelve clinics and hundreds of staff. Careful planning and constant communication made it the smoothest go-live we have had.",
  },
  {
    name: "Marcus Johnson",
    position: "Owner",
    company: "Johnson Family Dental",
    date: "August 2023",
    text: "The new booking site paid for itself within two months. Everything was explained in plain English and delivered exactly when promised.",
  },
  {
    name: "Priya Raman",
    position: "Product Designer",
    date: "January 2024",
    text: "A true partner to design: research findings became roadmap decisions, and I always knew which problem we were solving and for whom.",
  },
  {
    name: "Tom Alvarez",
    position: "IT Manager",
    company: "Coastal Logistics",
    date: "October 2022",
    text: "The project training for my team was practical from day one. Six months later we still use the templates and the knowledge-base guides every week.",
  },
  {
    name: "Rachel Green",
    position: "Scrum Master",
    company: "Enterprise SaaS Platform",
    date: "May 2023",
    text: "Calm under pressure and relentlessly focused on outcomes. Planning sessions became shorter and far more useful.",
  },
  {
    name: "Kevin O'Neil",
    position: "Chief Operating Officer",
    company: "Brightpath Consulting",
    date: "February 2024",
    text: "We brought them in to rescue a stalled program. Within a month we had a realistic plan, an aligned leadership team and our first delivery back on track.",
  },
  {
    name: "Lisa Turner",
    position: "Course Participant",
    date: "September 2024",
    text: "The best training I have taken: clear, honest and full of real examples. I passed my certification exam on the first attempt.",
  },
];

export interface HeroOption {
  title: string;
  description: string;
  image: string;
  benefits: readonly [string, string, string];
}

export const HERO_OPTIONS: readonly HeroOption[] = [
  {
    title: "Option 1: Split Hero",
    description: "Headline and certifications on the left, a professional portrait on the right.",
    image: "/images/hero/option-1",
    benefits: [
      "Puts a face to the name at first glance",
      "Certifications visible without scrolling",
      "Works well on wide and narrow screens",
    ],
  },
  {
    title: "Option 2: Full-Bleed Photo",
    description: "A wide background photo with the headline and buttons laid over a dark overlay.",
    image: "/images/hero/option-2",
    benefits: ["Strong, memorable first impression", "Room for a short, bold headline", "Familiar pattern for personal brands"],
  },
  {
    title: "Option 3: Gradient Statement",
    description: "A bold gradient background with a one-line value statement and no imagery.",
    image: "/images/hero/option-3",
    benefits: ["Fastest to load", "Keeps attention on the message", "Easy to restyle with brand colours"],
  },
  {
    title: "Option 4: Metrics First",
    description: "Three headline numbers (years of experience, projects delivered, teams led) beside the introduction.",
    image: "/images/hero/option-4",
    benefits: ["Shows impact in seconds", "Builds credibility with hiring managers", "Numbers are easy to keep up to date"],
  },
  {
    title: "Option 5: Video Intro",
    description: "A short muted video loop introducing the owner, with captions and a play button for sound.",
    image: "/images/hero/option-5",
    benefits: ["Most personal of the options", "Higher time on page", "Reusable on social media"],
  },
];
