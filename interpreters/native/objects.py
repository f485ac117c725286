"""
Loading the object code the JIT made back into this process, without the JIT.

MLIR's `ExecutionEngine` writes the machine code it compiled as an ELF relocatable
object (`dump_to_object_file`) but its bindings cannot load one back. The object is
simple to load ourselves: the JIT compiles with LLVM's large code model, so every
reference from code to code, data or a library function is an absolute 64-bit
address (`R_X86_64_64`) and the code runs wherever it is put.

```python
image = load_object(data)                    # bytes of an x86-64 ELF .o
address = image.symbol("_mlir__mlir_ciface_gemv")
```

`load_object` lays the object's allocated sections out in one anonymous mapping,
resolves each symbol (its section's address plus its value; an undefined one,
`malloc`, `free`, `memcpy`, libm's functions, from this process as the JIT would),
writes each relocation, then makes the mapping read-and-execute. The unwind tables
(`.eh_frame`) are not registered: nothing the engine emits throws. Anything else (a
relocation of another kind, another machine) is an `ObjectError`, and the cache
that held the object compiles afresh.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import struct
from dataclasses import dataclass, field

EM_X86_64 = 62
ET_REL = 1
SHT_SYMTAB = 2
SHT_NOBITS = 8
SHF_ALLOC = 0x2
SHN_UNDEF = 0
SHN_ABS = 0xFFF1
STT_FUNC = 2
PERF_MAP_ENV = "XDSL_SPATIAL_PERF_MAP"
R_X86_64_NONE = 0
R_X86_64_64 = 1

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
_libc.mprotect.restype = ctypes.c_int
_process = ctypes.CDLL(None)


class ObjectError(Exception):
    """An object file this loader does not take; the message says what."""


@dataclass
class Section:
    name: str
    kind: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    align: int
    entsize: int
    address: int = 0


@dataclass
class Image:
    """A loaded object: its mapping (kept alive with it) and its symbols' addresses."""

    memory: mmap.mmap
    symbols: dict[str, int] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    """Each function's bytes of code (for a profiler's map)."""

    def symbol(self, name: str) -> int:
        if name not in self.symbols:
            raise ObjectError(f"the object defines no symbol {name}")
        return self.symbols[name]


def _sections(data: bytes) -> list[Section]:
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ObjectError("not a 64-bit little-endian ELF file")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    if e_type != ET_REL or e_machine != EM_X86_64:
        raise ObjectError(f"not an x86-64 relocatable object (type {e_type}, machine {e_machine})")
    shoff = struct.unpack_from("<Q", data, 40)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
    raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = raw[shstrndx][4]
    out = []
    for name, kind, flags, _, offset, size, link, info, align, entsize in raw:
        end = data.index(b"\0", names_at + name)
        out.append(
            Section(
                data[names_at + name : end].decode(),
                kind,
                flags,
                offset,
                size,
                link,
                info,
                max(align, 1),
                entsize,
            )
        )
    return out


def load_object(data: bytes) -> Image:
    """The object `data` loaded and relocated in executable memory."""
    try:
        return _load(data)
    except (struct.error, ValueError, IndexError) as e:
        raise ObjectError(f"a malformed object file ({e})") from None


def _load(data: bytes) -> Image:
    sections = _sections(data)
    size = 0
    for s in sections:
        if s.flags & SHF_ALLOC and s.name != ".eh_frame":
            size = -(-size // s.align) * s.align
            s.address = size
            size += s.size
    memory = mmap.mmap(-1, max(size, 1), prot=mmap.PROT_READ | mmap.PROT_WRITE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    for s in sections:
        if s.flags & SHF_ALLOC and s.name != ".eh_frame":
            if s.kind != SHT_NOBITS:
                memory[s.address : s.address + s.size] = data[s.offset : s.offset + s.size]
            s.address += base
    symtab = next((s for s in sections if s.kind == SHT_SYMTAB), None)
    if symtab is None:
        raise ObjectError("the object has no symbol table")
    strtab = sections[symtab.link]
    addresses: list[int] = []
    symbols: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for i in range(symtab.size // symtab.entsize):
        name_at, info, _, shndx, value, st_size = struct.unpack_from(
            "<IBBHQQ", data, symtab.offset + i * symtab.entsize
        )
        end = data.index(b"\0", strtab.offset + name_at)
        name = data[strtab.offset + name_at : end].decode()
        if shndx == SHN_UNDEF:
            if not name:
                addresses.append(0)
                continue
            try:
                addr = ctypes.cast(getattr(_process, name), ctypes.c_void_p).value or 0
            except AttributeError:
                raise ObjectError(f"the object needs {name}, which this process lacks") from None
        elif shndx == SHN_ABS:
            addr = value
        else:
            target = sections[shndx]
            if not target.address:
                addr = 0  # a symbol of a section not loaded (unwind tables)
            else:
                addr = target.address + value
        addresses.append(addr)
        if name and shndx != SHN_UNDEF and info >> 4 != 0:  # global or weak
            symbols[name] = addr
            if info & 0xF == STT_FUNC:
                sizes[name] = st_size
    for rel in sections:
        if rel.kind != 4 or not (sections[rel.info].address):  # SHT_RELA of a loaded section
            continue
        target = sections[rel.info]
        for j in range(rel.size // 24):
            offset, info, addend = struct.unpack_from("<QQq", data, rel.offset + j * 24)
            kind, sym = info & 0xFFFFFFFF, info >> 32
            if kind == R_X86_64_NONE:
                continue
            if kind != R_X86_64_64:
                raise ObjectError(f"relocation type {kind} in {target.name} is not supported")
            at = target.address - base + offset
            struct.pack_into("<Q", memory, at, (addresses[sym] + addend) & (2**64 - 1))
    if _libc.mprotect(base, len(memory), mmap.PROT_READ | mmap.PROT_EXEC) != 0:
        raise ObjectError(f"cannot make the code executable (errno {ctypes.get_errno()})")
    image = Image(memory, symbols, sizes)
    if os.environ.get(PERF_MAP_ENV):
        write_perf_map(image)
    return image


def write_perf_map(image: Image) -> None:
    """Name the image's functions for `perf` (`/tmp/perf-PID.map`, which perf reads
    for code it finds in no file): set XDSL_SPATIAL_PERF_MAP=1 to profile the kernels
    of a function loaded from the compile cache."""
    with open(f"/tmp/perf-{os.getpid()}.map", "a", encoding="utf-8") as f:
        for name, size in image.sizes.items():
            f.write(f"{image.symbols[name]:x} {size:x} {name}\n")
