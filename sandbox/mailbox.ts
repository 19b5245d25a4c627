import { randomUUID } from "node:crypto";
import type { Resource } from "@medplum/fhirtypes";
import type { Clock } from "./clock";
import type { MailItem, SandboxStore } from "./store";
import type { WebhookDispatcher } from "./webhooks";

/**
 * What the platform sends a clinic on its own initiative, in both protocols at once: posting a
 * resource journals it (it survives a restart), makes it readable at `GET /{type}/{id}` and
 * announces it with a `resource.available` webhook (REST); a poll-request hands it out once, as a
 * message of its event, in the order posted together with the claims' late answers (messaging).
 * Areas of the sandbox that originate such resources (information requests, remittances) post
 * them here; nothing else delivers them.
 */
export class Mailbox {
  constructor(private readonly deps: { store: SandboxStore; webhooks: WebhookDispatcher; clock: Clock }) {}

  post(providerOrgId: string, resource: Resource, event: string): MailItem {
    const id = resource.id ?? randomUUID();
    const item: MailItem = {
      id,
      resourceType: resource.resourceType,
      providerOrgId,
      event,
      resource: { ...resource, id },
      createdAt: new Date(this.deps.clock.now()).toISOString(),
    };
    this.deps.store.postMail(item);
    this.deps.webhooks.announce(item.resourceType, id);
    return item;
  }

  /**
   * A whole message, handed out as is by polls (messaging only; never announced or readable by
   * id): how the sandbox sends what the exchange should never send — a malformed message.
   */
  postRaw(providerOrgId: string, raw: Record<string, unknown>, event: string): MailItem {
    const id = randomUUID();
    const item: MailItem = { id, resourceType: "Bundle", providerOrgId, event, resource: { resourceType: "Bundle", id, type: "message" }, raw, createdAt: new Date(this.deps.clock.now()).toISOString() };
    this.deps.store.postMail(item);
    return item;
  }

  /** The clinic's own mail only. */
  read(providerOrgId: string, resourceType: string, id: string): MailItem | undefined {
    const item = this.deps.store.getMail(resourceType, id);
    return item?.providerOrgId === providerOrgId ? item : undefined;
  }

  forClinic(providerOrgId: string): MailItem[] {
    return this.deps.store.allMail().filter((m) => m.providerOrgId === providerOrgId);
  }
}

/** The resource types the mailbox serves at `GET /{type}/{id}`. */
export const MAIL_RESOURCE_TYPES = ["CommunicationRequest", "Communication", "PaymentReconciliation", "Task", "ClaimResponse"] as const;
