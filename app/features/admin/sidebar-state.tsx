import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from "react";
import { useRouteLoaderData } from "react-router";
import { SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE } from "./nav";

/**
 * The admin sidebar's open state, shared by the admin layout (which draws the sidebar) and the site
 * header (whose toggle SPEC §2 "Shared layout" puts in the top bar on admin routes).
 */
interface SidebarState {
  /** null until toggled here: the admin layout's loader (the cookie) decides. */
  open: boolean | null;
  setOpen: (open: boolean) => void;
  openMobile: boolean;
  setOpenMobile: Dispatch<SetStateAction<boolean>>;
}

const SidebarContext = createContext<SidebarState | null>(null);

/** SPEC §9: narrower than 768 px is mobile. */
const MOBILE_QUERY = "(max-width: 767px)";
/** The layouts that draw the admin shell: the admin area's and the post editor's. */
const ADMIN_LAYOUT_ROUTE_ID = "routes/admin/layout";
const EDITOR_LAYOUT_ROUTE_ID = "routes/blog/editor-layout";

export function AdminSidebarProvider({ children }: { children: ReactNode }) {
  const [open, setOpenState] = useState<boolean | null>(null);
  const [openMobile, setOpenMobile] = useState(false);
  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = `${SIDEBAR_COOKIE}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
  }, []);
  const value = useMemo(() => ({ open, setOpen, openMobile, setOpenMobile }), [open, setOpen, openMobile]);
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

export function useAdminSidebar() {
  const state = useContext(SidebarContext);
  if (!state) throw new Error("useAdminSidebar needs <AdminSidebarProvider>");
  const adminLayout = useRouteLoaderData<{ sidebarOpen: boolean }>(ADMIN_LAYOUT_ROUTE_ID);
  const editorLayout = useRouteLoaderData<{ sidebarOpen: boolean }>(EDITOR_LAYOUT_ROUTE_ID);
  const layout = adminLayout ?? editorLayout;
  const open = state.open ?? layout?.sidebarOpen ?? true;
  const { setOpen, setOpenMobile } = state;
  /** Desktop: expanded ↔ icons (remembered in the cookie); mobile: the drawer. */
  const toggle = useCallback(() => {
    if (window.matchMedia(MOBILE_QUERY).matches) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [open, setOpen, setOpenMobile]);
  return { open, openMobile: state.openMobile, setOpenMobile, toggle, onAdminRoute: layout !== undefined };
}

/** Whether the viewport is mobile-sized (false during server rendering). */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const update = () => setMobile(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return mobile;
}
