import { join } from 'node:path';
import type { TrustRecords } from './trust-records.js';
import { AppGrantsStore } from './app-grants-store.js';
import { FlowOverridesStore } from './flow-overrides-store.js';
import { SamplingConsentStore } from './sampling-consent-store.js';

/**
 * The one store of standing policy decisions: trusted servers and "always allowed" tools
 * (`trust`, tied to a hash of each server's launch config) and each server's sampling consent
 * (`sampling`) and what a person decided about its interactive views (`apps`: device
 * permissions, the "show interactive views" switch) and a person's flow-label overrides (`flows`).
 * Everything in the app that reads or changes those records goes through here.
 *
 * On disk the two sections keep the files earlier versions wrote, so nothing is migrated: trust
 * is the `trust` section of settings.json (written in order with the chat settings by the
 * settings store, through conf or electron-store), sampling consent is `<dataDir>/sampling.json`,
 * app view decisions `<dataDir>/apps.json`, flow-label overrides `<dataDir>/flows.json`.
 */
export class PolicyStore {
  constructor(
    /** Trusted servers and standing tool approvals. */
    readonly trust: TrustRecords,
    /** Per-server sampling consent (ask / session / always / never) and reply review. */
    readonly sampling: SamplingConsentStore,
    /** Per-server MCP Apps view permissions and the "show interactive views" switch. */
    readonly apps: AppGrantsStore = AppGrantsStore.inMemory(),
    /** Flow labels a person set per tool or per server (over the computed defaults). */
    readonly flows: FlowOverridesStore = FlowOverridesStore.inMemory(),
  ) {}

  /**
   * Open the policies of a data folder (`trust` comes from its already open settings file); no
   * folder: memory only, but for the flow-label overrides when `flowsPath` names their file.
   */
  static async open(
    trust: TrustRecords,
    dataDir: string | undefined,
    flowsPath?: string,
  ): Promise<PolicyStore> {
    const sampling = dataDir
      ? await SamplingConsentStore.open(join(dataDir, 'sampling.json'))
      : SamplingConsentStore.inMemory();
    const apps = dataDir ? await AppGrantsStore.open(join(dataDir, 'apps.json')) : AppGrantsStore.inMemory();
    const flowsFile = flowsPath ?? (dataDir ? join(dataDir, 'flows.json') : undefined);
    const flows = flowsFile ? await FlowOverridesStore.open(flowsFile) : FlowOverridesStore.inMemory();
    return new PolicyStore(trust, sampling, apps, flows);
  }

  /** Called after any change of any section (a grant, a revoke, a forgotten server). */
  onChange(listener: () => void): () => void {
    const offs = [
      this.trust.onChange(listener),
      this.sampling.onChange(listener),
      this.apps.onChange(listener),
      this.flows.onChange(listener),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Drop every standing decision about a server (it was removed from the config). */
  async forgetServer(serverId: string): Promise<void> {
    await Promise.all([
      this.trust.forgetServer(serverId),
      this.sampling.forget(serverId),
      this.apps.forget(serverId),
      this.flows.forget(serverId),
    ]);
  }

  /** Resolves once every queued write of both sections has finished. */
  async flush(): Promise<void> {
    await Promise.all([this.trust.flush(), this.sampling.flush(), this.apps.flush(), this.flows.flush()]);
  }
}
