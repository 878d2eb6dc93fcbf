import { lazy, Suspense, type ComponentType } from "react";

/**
 * A component whose code stays out of the page's initial JavaScript: the browser loads
 * it when it first renders. The server imports it at start-up and renders it in place, so the HTML
 * (and a form that works without JavaScript) is complete; hydration keeps that HTML until the
 * code has arrived. Always the lazy component in the browser, so typed input is never remounted.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  let loaded: ComponentType<P> | undefined;
  if (import.meta.env.SSR) {
    void load().then((component) => {
      loaded = component;
    });
  }
  return function Deferred(props: P) {
    const Component = (import.meta.env.SSR && loaded) || Lazy;
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  };
}
