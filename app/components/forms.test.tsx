// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { parseSubmission, type SubmissionResult } from "~/lib/forms";
import { FormField, isFormIntent, useSchemaForm } from "./forms";

afterEach(cleanup);

const schema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(5, "Name must be less than 5 characters"),
  note: z.string().optional(),
});

function Demo({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm({ id: "demo", schema, lastResult });
  return (
    <form id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit}>
      <FormField field={fields.name} label="Name">
        {(props) => <input {...props} />}
      </FormField>
      <FormField field={fields.note} label="Note">
        {(props) => <input {...props} />}
      </FormField>
      <button type="submit">Save</button>
    </form>
  );
}

it("shows a field's error when it loses focus and clears it as soon as the field is valid", async () => {
  render(<Demo />);
  const name = screen.getByLabelText("Name");
  expect(name.getAttribute("aria-invalid")).toBeNull();
  expect(name.hasAttribute("required")).toBe(true);
  expect(screen.getByLabelText("Note").hasAttribute("required")).toBe(false);

  await act(async () => {
    fireEvent.focus(name);
    fireEvent.blur(name);
  });
  expect(await screen.findByText("Name is required")).toBeTruthy();
  expect(name.getAttribute("aria-invalid")).toBe("true");
  expect(name.getAttribute("aria-describedby")).toBe("demo-name-error");
  expect(document.getElementById("demo-name-error")?.textContent).toBe("Name is required");

  // Re-checked on every keystroke once checked: a new problem replaces the old message...
  await act(async () => {
    fireEvent.input(name, { target: { value: "toolong" } });
  });
  expect(screen.queryByText("Name is required")).toBeNull();
  expect(screen.getByText("Name must be less than 5 characters")).toBeTruthy();

  // ...and a valid value clears it at once, without another blur or submit.
  await act(async () => {
    fireEvent.input(name, { target: { value: "Ada" } });
  });
  expect(screen.queryByRole("alert")).toBeNull();
  expect(name.getAttribute("aria-invalid")).toBeNull();
  expect(name.getAttribute("aria-describedby")).toBeNull();
});

it("stops an invalid submit, marks every invalid field and focuses the first", async () => {
  render(<Demo />);
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
  });
  expect(screen.getByText("Name is required")).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByLabelText("Name"));
});

it("renders the server's reply (same messages, typed values kept) and clears it once the field is fixed", async () => {
  const form = new FormData();
  form.set("name", "   ");
  form.set("note", "kept");
  const lastResult = parseSubmission(form, schema).reply();
  render(<Demo lastResult={lastResult} />);
  const name = screen.getByLabelText("Name");
  expect(screen.getByText("Name is required")).toBeTruthy();
  expect(name.getAttribute("aria-invalid")).toBe("true");
  expect(screen.getByLabelText<HTMLInputElement>("Note").value).toBe("kept");

  await act(async () => {
    fireEvent.input(name, { target: { value: "Bo" } });
  });
  expect(screen.queryByText("Name is required")).toBeNull();
  expect(name.getAttribute("aria-invalid")).toBeNull();
});

it("tells Conform's field checks (a field losing focus) from the person sending the form", async () => {
  const seen: boolean[] = [];
  function Watched() {
    const [form, fields] = useSchemaForm({ id: "watched", schema });
    const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
      seen.push(isFormIntent(event));
      form.onSubmit(event);
    };
    return (
      <form id={form.id} noValidate={form.noValidate} onSubmit={onSubmit}>
        <FormField field={fields.name} label="Name">
          {(props) => <input {...props} />}
        </FormField>
        <button type="submit">Save</button>
      </form>
    );
  }
  render(<Watched />);
  const name = screen.getByLabelText("Name");
  await act(async () => {
    fireEvent.focus(name);
    fireEvent.blur(name);
  });
  // The check on blur is a submit event too: it must not count as sending.
  expect(seen).toEqual([true]);
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
  });
  expect(seen).toEqual([true, false]);
});
