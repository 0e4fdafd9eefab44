/**
 * /admin (where signing in leads): the registrations list for an organiser (admin spec §2), the race list
 * (/admin/edit-races) for a volunteer, whose work is race morning's (issue 43). The shell has the config by now.
 */
import { Navigate } from "react-router";
import { useConfig } from "../../lib/config/get-config";
import { adminStartPath } from "./admin-screens";

export default function AdminStart() {
  const config = useConfig();
  return <Navigate to={adminStartPath(config.data?.adminRole ?? "organiser")} replace />;
}
