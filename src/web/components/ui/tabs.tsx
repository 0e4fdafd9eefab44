/** Radix Tabs, wrapped and styled once (theme.css `.tabs-*`). The list scrolls sideways on narrow screens. */
import * as RadixTabs from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";

export const Tabs = RadixTabs.Root;

export function TabsList({ className, ...rest }: ComponentProps<typeof RadixTabs.List>) {
  return <RadixTabs.List className={["tabs-list", className ?? ""].filter(Boolean).join(" ")} {...rest} />;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof RadixTabs.Trigger>) {
  return <RadixTabs.Trigger className={["tabs-trigger", className ?? ""].filter(Boolean).join(" ")} {...rest} />;
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof RadixTabs.Content>) {
  return <RadixTabs.Content className={["tabs-content", className ?? ""].filter(Boolean).join(" ")} {...rest} />;
}
