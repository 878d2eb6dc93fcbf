import { KeyRound, Loader2 } from "lucide-react";
import { useState } from "react";
import { useSubmit } from "react-router";
import { toast } from "~/components/toaster";
import { useIsSubmitting } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { runPasskeyCeremony } from "./passkey-client";

/**
 * /auth's passkey buttons: asks the authenticator, then posts its answer to the page's action under
 * `intent` (the session starts there). A passkey left unused says so in a toast.
 */
export function PasskeyButton({
  purpose,
  intent,
  children,
}: {
  purpose: "sign-in" | "second-factor";
  intent: "passkey" | "2fa-passkey";
  children: React.ReactNode;
}) {
  const submit = useSubmit();
  const submitting = useIsSubmitting({ intent });
  const [waiting, setWaiting] = useState(false);
  const busy = waiting || submitting;
  const start = () => {
    setWaiting(true);
    void runPasskeyCeremony(purpose).then((outcome) => {
      setWaiting(false);
      if ("error" in outcome) {
        toast.error("Error", { description: outcome.error });
        return;
      }
      void submit({ intent, credential: outcome.credential }, { method: "post" });
    });
  };
  return (
    <Button type="button" variant="outline" onClick={start} disabled={busy} aria-busy={busy}>
      {busy ? <Loader2 className="animate-spin" aria-hidden /> : <KeyRound aria-hidden />}
      {children}
    </Button>
  );
}
