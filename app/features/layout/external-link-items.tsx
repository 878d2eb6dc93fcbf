/** List items linking to other sites (services, social links), opened in a new tab without an opener. */
export function ExternalLinkItems({ links, className }: { links: ReadonlyArray<{ label: string; url: string }>; className: string }) {
  return links.map((link) => (
    <li key={link.url}>
      <a href={link.url} target="_blank" rel="noopener noreferrer" className={className}>
        {link.label}
      </a>
    </li>
  ));
}
