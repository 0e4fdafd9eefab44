/**
 * The small-screen drawer. A separate chunk: Radix Dialog is only downloaded when someone opens the menu,
 * which keeps it out of the public entry (DESIGN.md: entry JS ≤ 120 kB gzip).
 */
import { Dialog, DialogContent } from "../ui/dialog";
import { NavLinks } from "./nav-links";

export default function MobileNavDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Meny" side="right" closeLabel="Stäng menyn" className="nav-drawer">
        {/* Spec: the drawer omits the registration link. */}
        <nav aria-label="Huvudmeny">
          <NavLinks onNavigate={() => onOpenChange(false)} />
        </nav>
      </DialogContent>
    </Dialog>
  );
}
