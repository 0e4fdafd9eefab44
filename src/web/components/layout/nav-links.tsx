import { NavLink } from "react-router";
import { useConfig } from "../../lib/config/get-config";
import { ADMIN_DOCUMENT } from "../../lib/document-area";
import { NAV_ITEMS } from "../../lib/site";

/**
 * The site's navigation links, shared by the top bar and the small-screen drawer. 'Admin' and 'Logga ut'
 * depend on who is signed in, so they only appear once the config has arrived, last in the row, where
 * their arrival moves nothing else. A signed-in admin is signed in too: /api/logout ends both sessions.
 */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const config = useConfig().data;
  return (
    <ul className="nav-links">
      {NAV_ITEMS.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.to === "/"} className="nav-link" onClick={onNavigate}>
            {item.label}
          </NavLink>
        </li>
      ))}
      {config?.isAdmin && (
        <li>
          {/* From a public document, a new one: only the admin area's may use the camera (document-area.ts). */}
          <NavLink to="/admin" className="nav-link" onClick={onNavigate} reloadDocument={!ADMIN_DOCUMENT}>
            Admin
          </NavLink>
        </li>
      )}
      {(config?.isLoggedIn || config?.isAdmin) && (
        <li>
          <NavLink to="/logout" className="nav-link" onClick={onNavigate}>
            Logga ut
          </NavLink>
        </li>
      )}
    </ul>
  );
}
