import { DeleteConfirm } from "~/components/admin-list";
import { Timestamp } from "~/components/timestamp";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { SubscriberRow } from "./subscriptions.server";

const STATE_LABEL: Record<SubscriberRow["state"], string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  unsubscribed: "Unsubscribed",
};

/** Confirmed subscribers per category. */
export function SubscribersByCategory({ byCategory }: { byCategory: Array<{ category: string; confirmed: number }> }) {
  return (
    <Table containerClassName="mt-6" className="w-auto">
      <TableCaption className="mb-2 text-left font-semibold">Confirmed subscribers by category</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead className="py-1 pr-6">Category</TableHead>
          <TableHead className="py-1">Subscribers</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {byCategory.map((c) => (
          <TableRow key={c.category}>
            <TableCell className="py-1 pr-6">{c.category}</TableCell>
            <TableCell className="py-1">{c.confirmed}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Every subscriber, newest first, each with Delete (behind a confirmation). */
export function SubscriberTable({ rows }: { rows: Array<Omit<SubscriberRow, "createdAt"> & { createdAt: string }> }) {
  if (rows.length === 0) return null;
  return (
    <Table containerClassName="mt-8">
      <TableCaption className="sr-only">Subscribers, newest first</TableCaption>
      <TableHeader>
        <TableRow>
          {["Email", "State", "Categories", "Since"].map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.id} className="align-top" data-testid="subscriber-row">
            <TableCell className="break-all">{r.email}</TableCell>
            <TableCell>{STATE_LABEL[r.state]}</TableCell>
            <TableCell>{r.categories.join(", ")}</TableCell>
            <TableCell className="whitespace-nowrap">
              <Timestamp iso={r.createdAt} format="date" />
            </TableCell>
            <TableCell>
              <DeleteConfirm
                id={r.id}
                name={r.email}
                title="Delete this subscriber?"
                description={`${r.email} will be removed for good, with its subscription history. This cannot be undone.`}
                confirmLabel="Delete subscriber"
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
