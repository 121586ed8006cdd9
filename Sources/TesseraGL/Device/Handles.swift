import TesseraNumbers

/// A slot in a ``ResourcePool``: an index plus the generation it was filled in, so a handle to a
/// destroyed resource is detected instead of silently naming a newer one.
package struct ResourceSlot: Sendable, Hashable {
  let index: UInt32
  let generation: UInt32
}

/// A vertex or index buffer of a ``GLDevice``.
package struct BufferHandle: Sendable, Hashable { let slot: ResourceSlot }
/// A 2D texture of a ``GLDevice``.
package struct TextureHandle: Sendable, Hashable { let slot: ResourceSlot }
/// A pipeline (program plus all fixed-function state) of a ``GLDevice``.
package struct PipelineHandle: Sendable, Hashable { let slot: ResourceSlot }
/// An offscreen render target of a ``GLDevice``.
package struct RenderTargetHandle: Sendable, Hashable { let slot: ResourceSlot }

/// Storage for one kind of GPU resource, addressed by generation-checked slots.
///
/// Using a slot after its resource was removed is a programming error and traps.
struct ResourcePool<Resource> {
  private var entries: [(generation: UInt32, resource: Resource?)] = []
  private var freeIndices: [UInt32] = []

  /// How many resources are alive.
  private(set) var count = 0

  /// Stores a resource and returns its slot.
  mutating func insert(_ resource: Resource) -> ResourceSlot {
    count += 1
    if let index = freeIndices.popLast() {
      let generation = entries[Int(index)].generation &+ 1
      entries[Int(index)] = (generation, resource)
      return ResourceSlot(index: index, generation: generation)
    }
    entries.append((0, resource))
    return ResourceSlot(index: UInt32(entries.count - 1), generation: 0)
  }

  /// The resource in `slot`; traps when the slot is stale.
  subscript(slot: ResourceSlot) -> Resource {
    get {
      let entry = entries[Int(slot.index)]
      guard entry.generation == slot.generation, let resource = entry.resource else {
        preconditionFailure("use of a destroyed GPU resource (slot \(slot.index))")
      }
      return resource
    }
    set {
      precondition(entries[Int(slot.index)].generation == slot.generation, "stale GPU resource slot")
      entries[Int(slot.index)].resource = newValue
    }
  }

  /// Removes and returns the resource in `slot`; traps when the slot is stale.
  mutating func remove(_ slot: ResourceSlot) -> Resource {
    let resource = self[slot]
    entries[Int(slot.index)].resource = nil
    freeIndices.append(slot.index)
    count -= 1
    return resource
  }

  /// Every live resource.
  var all: [Resource] { entries.compactMap(\.resource) }
}
