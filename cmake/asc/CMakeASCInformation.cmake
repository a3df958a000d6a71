# CMakeASCInformation.cmake — the language ASC, step 3 of 4: how CMake
# compiles and links ASC sources with normgrad-cc, read at every configure
# when project() or enable_language() enables ASC:
#   - a .asc file is compiled by `normgrad-cc -c` (launches rewritten, normgrad's
#     headers searched), and a target with ASC objects is linked by normgrad-cc,
#     which links normgrad's runtime; a shared library by `normgrad-cc -shared`,
#     which leaves the runtime to the program;
#   - CMAKE_ASC_ARCHITECTURES (dav-2201, dav-2002 or dav-3510) becomes
#     --npu-arch=<value> ahead of the target's own options, so a target's
#     $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=...> wins; unset, normgrad-cc's
#     default (dav-2201) holds;
#   - CMAKE_ASC_STANDARD (default 17) becomes -std=c++<value>;
#   - C++ sources of the project see normgrad's headers (acl/acl.h,
#     kernel_operator.h, generated launch headers' includes), as host files
#     compiled next to Ascend C sources do with the vendor's kit.
# Like the vendor's, these variables are read here: set them before
# find_package(ASC)/project(), or with -D.
include(CMakeInitializeConfigs)

set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_SHARED_LIBRARY_ASC_FLAGS "-fPIC")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")

# Flags per build type, the vendor's defaults.
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
string(APPEND CMAKE_ASC_FLAGS_DEBUG_INIT " -O0 -g")
string(APPEND CMAKE_ASC_FLAGS_RELEASE_INIT " -O3 -DNDEBUG")
string(APPEND CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT " -O2 -g -DNDEBUG")
string(APPEND CMAKE_ASC_FLAGS_MINSIZEREL_INIT " -Os -DNDEBUG")
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")

set(asc_arch_flag "")
if(DEFINED CMAKE_ASC_ARCHITECTURES)
  if(NOT CMAKE_ASC_ARCHITECTURES MATCHES "^dav-(2201|2002|3510)$")
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES '${CMAKE_ASC_ARCHITECTURES}': not an NPU "
                        "architecture normgrad emulates (valid: dav-2201 for a2, dav-2002 for "
                        "310p, dav-3510 for 950)")
  endif()
  set(asc_arch_flag "--npu-arch=${CMAKE_ASC_ARCHITECTURES}")
endif()
if(NOT DEFINED CMAKE_ASC_STANDARD)
  set(CMAKE_ASC_STANDARD 17)
endif()
if(CMAKE_ASC_STANDARD LESS 17)
  message(WARNING "CMAKE_ASC_STANDARD ${CMAKE_ASC_STANDARD}: Ascend C needs C++17 or later")
endif()

set(CMAKE_ASC_COMPILE_OBJECT
  "<CMAKE_ASC_COMPILER> ${asc_arch_flag} -std=c++${CMAKE_ASC_STANDARD} <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c <SOURCE>")
set(CMAKE_ASC_LINK_EXECUTABLE
  "<CMAKE_ASC_COMPILER> <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_LIBRARY
  "<CMAKE_ASC_COMPILER> <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_MODULE "${CMAKE_ASC_CREATE_SHARED_LIBRARY}")
set(asc_ar "<CMAKE_AR>")
if(CMAKE_ASC_COMPILER_AR)
  set(asc_ar "${CMAKE_ASC_COMPILER_AR}")
endif()
set(CMAKE_ASC_ARCHIVE_CREATE "${asc_ar} qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_APPEND "${asc_ar} q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")

list(APPEND CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${ASC_NORMGRAD_INCLUDE_DIRS})

unset(asc_arch_flag)
unset(asc_ar)

set(CMAKE_ASC_INFORMATION_LOADED 1)
