import { Link } from "react-router";

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto max-w-6xl px-4 py-8 text-sm text-muted-foreground">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-4">
            <li><Link to="/" className="hover:text-primary">Home</Link></li>
            <li><Link to="/about" className="hover:text-primary">About Me</Link></li>
            <li><Link to="/projects" className="hover:text-primary">My Projects</Link></li>
            <li><Link to="/contact" className="hover:text-primary">Contact Me</Link></li>
          </ul>
        </nav>
        <p className="mt-6">© {new Date().getFullYear()} All rights reserved.</p>
      </div>
    </footer>
  );
}
