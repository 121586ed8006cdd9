import CEGL
import CGBM
import Dispatch
import Foundation
import TesseraNumbers

/// An initialised EGL display without any window system: Mesa's surfaceless platform, the EGL
/// device platform, or Mesa's GBM platform on a render node.
///
/// EGL displays are process-wide objects in EGL itself (`eglGetPlatformDisplay` returns the same
/// handle for the same arguments, and `eglTerminate` would pull it from under every context), so
/// Tessera opens each display once per process, keeps it for the process's lifetime, and hands
/// out the same object to every caller. Contexts are made per rendering thread
/// (``GLContext``).
///
/// Rendering threads may each ask for a *lane* of their own (``open(_:lane:rasterThreads:)``).
/// llvmpipe rasterises every context of one display with one pool of threads, one scene at a
/// time (the rasteriser belongs to the display's screen, behind a mutex), so threads rendering
/// on one display wait for each other's pixels and leave cores idle. A lane is a display of its
/// own, with its own screen and rasteriser: Mesa gives a second display for the same platform
/// when the attribute list differs, and an absent list and an empty one (`EGL_NONE` alone)
/// differ, so the surfaceless and device platforms have ``laneCount`` lanes each.
package final class HeadlessDisplay: @unchecked Sendable {
  /// The selection this display was resolved to (never `.auto` or `.software`).
  package let resolvedSelection: GPUSelection
  /// A human-readable description of the platform and device.
  package let platformDescription: String
  /// EGL version reported by `eglInitialize`.
  package let version: (major: Int32, minor: Int32)
  /// The display's extensions.
  package let extensions: [String]
  /// The EGL vendor string.
  package let vendor: String

  package let display: EGLDisplay
  /// The config contexts are made with; nil when the display supports configless contexts.
  let config: EGLConfig?
  /// Whether contexts need a 1×1 pbuffer because `EGL_KHR_surfaceless_context` is missing.
  let needsPbuffer: Bool
  /// The GBM device behind a gbm-platform display (kept open as long as the display).
  let gbmDevice: OpaquePointer?

  /// The lane this display is (0 for every caller that does not ask for one).
  package let lane: Int
  /// Makes the display's contexts take turns where its renderer is llvmpipe, as the display's
  /// driver name says, or may be where it does not say; see
  /// ``ContextExclusion/isNeeded(mayDrawInSoftware:isGBM:driverName:)``.
  package let exclusion: ContextExclusion
  /// The Mesa driver behind the display ("swrast" and "kms_swrast" are llvmpipe), nil where
  /// EGL does not say (`EGL_MESA_query_driver`).
  package let driverName: String?

  /// Displays of their own that the surfaceless and device platforms give (an absent attribute
  /// list and an empty one); the gbm platform has one.
  package static let laneCount = 2

  private struct Key: Hashable {
    let selection: GPUSelection
    let lane: Int
  }

  /// The displays opened so far. Held while a display opens, so that displays open one at a
  /// time (``MesaEnvironment/withRasterThreads(_:_:)`` sets the environment meanwhile) and a
  /// second caller for the same display waits for the first one's; its waiters sleep.
  private static let opened = SleepingLock<[Key: HeadlessDisplay]>([:])

  /// Opens the display for `selection`, or returns the one already open for it.
  ///
  /// `lane` picks one of the platform's displays (taken modulo the lanes it has; see the type's
  /// notes). `rasterThreads` is how many rasteriser threads llvmpipe gives the lane's display
  /// when this call opens it (`LP_NUM_THREADS` for its screen; nil: llvmpipe's default, one per
  /// core); a thread count the process's environment sets wins, and a display already open keeps
  /// its threads.
  package static func open(_ selection: GPUSelection = .auto, lane: Int = 0, rasterThreads: Int? = nil)
    throws(EGLError) -> HeadlessDisplay
  {
    let resolved = try resolve(selection)
    let key = Key(selection: resolved.selection, lane: lanes(resolved.selection) > 1 ? lane % laneCount : 0)
    let result: Result<HeadlessDisplay, EGLError> = opened.withLock { table in
      if let display = table[key] { return .success(display) }
      let made = Result { () throws(EGLError) in
        try HeadlessDisplay(resolved, lane: key.lane, rasterThreads: rasterThreads)
      }
      if case .success(let display) = made { table[key] = display }
      return made
    }
    return try result.get()
  }

  /// The lanes `selection` has: ``laneCount`` on the surfaceless and device platforms, one on
  /// gbm (`auto` and `software` as they resolve).
  package static func lanes(_ selection: GPUSelection) -> Int {
    switch selection {
    case .surfaceless, .device, .auto, .software: return laneCount
    case .gbm: return 1
    }
  }

  /// Starts opening the display for `selection` on another thread, so that EGL start-up
  /// (loading the driver: tens of milliseconds on Mesa) overlaps other work. A later
  /// ``open(_:)`` returns that display, waiting for it if needed, or throws the error opening
  /// it gave.
  ///
  /// A thread of its own rather than Dispatch's pool: the process's first job on that pool
  /// waits about 1.7 ms for the pool to start its first worker, and EGL's start-up is on a
  /// first frame's critical path.
  package static func startOpening(_ selection: GPUSelection = .auto) {
    let thread = Thread { _ = try? open(selection) }
    thread.name = "tessera-egl"
    thread.start()
  }

  /// A selection narrowed to a concrete platform, with the device handle it needs.
  struct Resolved {
    let selection: GPUSelection
    let device: EGLDeviceHandle?
    let description: String
    /// Whether the device is Mesa's software device (`EGL_MESA_device_software`).
    var isSoftwareDevice = false
    /// Whether Mesa's software rasteriser draws for it: a software device, or the surfaceless
    /// platform on a machine without render nodes (or with `LIBGL_ALWAYS_SOFTWARE` set).
    var isSoftware: Bool {
      switch selection {
      case .surfaceless:
        let forced = ProcessInfo.processInfo.environment["LIBGL_ALWAYS_SOFTWARE"].map { !["", "0"].contains($0) }
        return forced == true || EGLDeviceList.renderNodes().isEmpty
      case .device: return isSoftwareDevice
      case .gbm, .auto, .software: return false
      }
    }
    /// Whether llvmpipe may draw for it, judged before the display is open: always on the
    /// surfaceless platform (Mesa falls back to it where a render node has no Mesa driver),
    /// on Mesa's software device.
    var mayDrawInSoftware: Bool {
      switch selection {
      case .surfaceless: return true
      case .device: return isSoftwareDevice
      case .gbm, .auto, .software: return false
      }
    }
  }

  /// Turns `auto`, `software` and `device:N` into a concrete platform and device.
  static func resolve(_ selection: GPUSelection) throws(EGLError) -> Resolved {
    switch selection {
    case .surfaceless:
      return Resolved(selection: .surfaceless, device: nil, description: "surfaceless platform")
    case .gbm(let path):
      guard let node = path ?? EGLDeviceList.renderNodes().first else {
        throw EGLError.renderNode(
          path: nil,
          reason: "no DRM render node (/dev/dri/renderD*) on this machine; the gbm platform needs"
            + " a GPU with a kernel DRM driver (use --gpu surfaceless or software instead)")
      }
      return Resolved(selection: .gbm(renderNode: node), device: nil, description: "gbm platform on \(node)")
    case .auto:
      if let devices = try? EGLDeviceList.enumerate(),
        let hardware = devices.first(where: { !$0.0.isSoftware })
      {
        return deviceResolution(hardware.0, hardware.1)
      }
      return Resolved(selection: .surfaceless, device: nil, description: "surfaceless platform")
    case .software:
      let devices = try EGLDeviceList.enumerate()
      guard let software = devices.first(where: { $0.0.isSoftware }) else {
        throw EGLError.noDevice(kind: "software")
      }
      return deviceResolution(software.0, software.1)
    case .device(let index):
      let devices = try EGLDeviceList.enumerate()
      guard index < devices.count else {
        throw EGLError.noSuchDevice(index: index, count: devices.count)
      }
      return deviceResolution(devices[index].0, devices[index].1)
    }
  }

  private static func deviceResolution(_ description: EGLDeviceDescription, _ handle: EGLDeviceHandle)
    -> Resolved
  {
    let kind = description.isSoftware ? "software" : (description.renderNodeFile ?? "hardware")
    return Resolved(
      selection: .device(description.index), device: handle,
      description: "device platform, device \(description.index) (\(kind))", isSoftwareDevice: description.isSoftware)
  }

  private init(_ resolved: Resolved, lane: Int, rasterThreads: Int?) throws(EGLError) {
    MesaEnvironment.prepare()
    // An empty attribute list: a display apart from the one an absent list names.
    let laneAttributes: [EGLAttrib]? = lane == 0 ? nil : [EGLAttrib(EGL_NONE)]
    let client = clientExtensions()
    // Mesa's EGL is loaded now (the query above); its software driver, when it will be used,
    // is loaded with deep binding before EGL loads it the slow way.
    if resolved.isSoftware { SoftwareDriverPreload.load() }
    var display: EGLDisplay?
    var gbmDevice: OpaquePointer?
    switch resolved.selection {
    case .surfaceless:
      guard client.contains("EGL_MESA_platform_surfaceless") else {
        if client.isEmpty { throw EGLError.unavailable(call: "eglQueryString", code: eglGetError()) }
        throw EGLError.missingExtension(name: "EGL_MESA_platform_surfaceless", on: "libEGL")
      }
      display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, laneAttributes)
    case .device:
      guard client.contains("EGL_EXT_platform_device") else {
        throw EGLError.missingExtension(name: "EGL_EXT_platform_device", on: "libEGL")
      }
      display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), resolved.device?.raw, laneAttributes)
    case .gbm(let node):
      (display, gbmDevice) = try GBMPlatform.display(renderNode: node ?? "")
    case .auto, .software:
      preconditionFailure("selection must be resolved first")
    }
    guard let display else {
      throw EGLError.unavailable(call: "eglGetPlatformDisplay", code: eglGetError())
    }
    var major: EGLint = 0
    var minor: EGLint = 0
    let initialised = MesaEnvironment.withRasterThreads(rasterThreads) { eglInitialize(display, &major, &minor) }
    guard initialised != 0 else {
      throw EGLError.unavailable(call: "eglInitialize", code: eglGetError())
    }
    self.display = display
    self.lane = lane
    let displayExtensions = extensionList(eglQueryString(display, EGL_EXTENSIONS))
    var isGBM = false
    if case .gbm = resolved.selection { isGBM = true }
    driverName = displayDriverName(display, extensions: displayExtensions)
    exclusion = ContextExclusion(
      exclusive: ContextExclusion.isNeeded(
        mayDrawInSoftware: resolved.mayDrawInSoftware, isGBM: isGBM, driverName: driverName))
    self.gbmDevice = gbmDevice
    resolvedSelection = resolved.selection
    platformDescription = resolved.description
    version = (major, minor)
    extensions = displayExtensions
    vendor = eglQueryString(display, EGL_VENDOR).map { String(cString: $0) } ?? "unknown"
    needsPbuffer = !extensions.contains("EGL_KHR_surfaceless_context")
    if extensions.contains("EGL_KHR_no_config_context") && !needsPbuffer {
      config = nil
    } else {
      config = try HeadlessDisplay.chooseConfig(display, pbuffer: needsPbuffer)
    }
  }

  private static func chooseConfig(_ display: EGLDisplay, pbuffer: Bool) throws(EGLError) -> EGLConfig {
    let attributes: [EGLint] = [
      EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
      EGL_SURFACE_TYPE, pbuffer ? EGL_PBUFFER_BIT : 0,
      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
      EGL_NONE,
    ]
    var config: EGLConfig?
    var count: EGLint = 0
    guard eglChooseConfig(display, attributes, &config, 1, &count) != 0 else {
      throw EGLError.lastCall("eglChooseConfig")
    }
    guard count > 0, let config else {
      throw EGLError.call(name: "eglChooseConfig", code: EGL_BAD_CONFIG)
    }
    return config
  }
}
