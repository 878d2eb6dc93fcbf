// @vitest-environment jsdom
import { cleanup, fireEvent, render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, expect, it } from "vitest";
import { FeaturedCard } from "./featured-card";

afterEach(cleanup);

function renderCard(image: string | null) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <FeaturedCard
          kicker="Newsletter"
          title="A post"
          description="About it"
          image={image}
          href="https://example.test/p"
          external
          cta="Read Newsletter"
        />
      ),
    },
  ]);
  return render(<Stub initialEntries={["/"]} />);
}

it("shows a feed image, sized, lazy, and swaps a broken one for the placeholder", () => {
  const { container } = renderCard("https://cdn.example.test/missing.jpg");
  const img = container.querySelector("img");
  if (!img) throw new Error("no image");
  expect(img.getAttribute("width")).toBe("800");
  expect(img.getAttribute("height")).toBe("450");
  expect(img.getAttribute("loading")).toBe("lazy");
  fireEvent.error(img);
  expect(container.querySelector("img")).toBeNull();
  expect(container.querySelector("article .aspect-video")).not.toBeNull();
  expect(container.querySelector("a")?.getAttribute("aria-label")).toBe("Read Newsletter: A post (opens in a new tab)");
});

it("uses the AVIF/WebP set for a shipped image", () => {
  const { container } = renderCard("/images/projects/launch-kit-800.webp");
  expect(container.querySelector('source[type="image/avif"]')?.getAttribute("srcset")).toBe(
    "/images/projects/launch-kit-400.avif 400w, /images/projects/launch-kit-800.avif 800w",
  );
});
