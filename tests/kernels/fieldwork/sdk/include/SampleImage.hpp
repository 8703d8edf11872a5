/* SampleImage.hpp: reading and writing 24/32-bit BMP images as uchar4 pixels, for the
 * image samples of hipwb's fieldwork corpus. The on-disk headers are packed structs.
 */
#ifndef SAMPLEIMAGE_HPP_
#define SAMPLEIMAGE_HPP_

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

namespace samplekit
{

#pragma pack(push, 1)
struct BmpFileHeader
{
    unsigned short magic; /* 'BM' */
    unsigned int   fileSize;
    unsigned short reserved1;
    unsigned short reserved2;
    unsigned int   pixelOffset;
};

struct BmpInfoHeader
{
    unsigned int   headerSize;
    int            width;
    int            height;
    unsigned short planes;
    unsigned short bitsPerPixel;
    unsigned int   compression;
    unsigned int   imageSize;
    int            xPixelsPerMeter;
    int            yPixelsPerMeter;
    unsigned int   coloursUsed;
    unsigned int   coloursImportant;
};
#pragma pack(pop)

static_assert(sizeof(BmpFileHeader) == 14, "packed BMP file header");
static_assert(sizeof(BmpInfoHeader) == 40, "packed BMP info header");

class Image
{
public:
    Image() : width_(0), height_(0) {}
    Image(unsigned int w, unsigned int h) : width_(w), height_(h), pixels_(w * h) {}

    bool load(const char* path)
    {
        FILE* f = fopen(path, "rb");
        if(!f)
            return false;
        BmpFileHeader file;
        BmpInfoHeader info;
        bool ok = fread(&file, sizeof(file), 1, f) == 1 && fread(&info, sizeof(info), 1, f) == 1
                  && file.magic == 0x4D42 && (info.bitsPerPixel == 24 || info.bitsPerPixel == 32);
        if(ok)
        {
            width_  = (unsigned int)info.width;
            height_ = (unsigned int)(info.height < 0 ? -info.height : info.height);
            pixels_.assign(width_ * height_, make_uchar4(0, 0, 0, 255));
            const unsigned int bytes = info.bitsPerPixel / 8, stride = (width_ * bytes + 3) & ~3u;
            std::vector<unsigned char> row(stride);
            fseek(f, file.pixelOffset, SEEK_SET);
            for(unsigned int y = 0; ok && y < height_; ++y)
            {
                ok = fread(&row[0], stride, 1, f) == 1;
                for(unsigned int x = 0; ok && x < width_; ++x)
                {
                    uchar4& p = pixels_[(info.height < 0 ? y : height_ - 1 - y) * width_ + x];
                    p.z = row[x * bytes];
                    p.y = row[x * bytes + 1];
                    p.x = row[x * bytes + 2];
                    p.w = bytes == 4 ? row[x * bytes + 3] : 255;
                }
            }
        }
        fclose(f);
        return ok;
    }

    bool save(const char* path) const
    {
        FILE* f = fopen(path, "wb");
        if(!f)
            return false;
        BmpFileHeader file = {0x4D42, 0, 0, 0, sizeof(BmpFileHeader) + sizeof(BmpInfoHeader)};
        BmpInfoHeader info;
        memset(&info, 0, sizeof(info));
        info.headerSize   = sizeof(info);
        info.width        = (int)width_;
        info.height       = -(int)height_;
        info.planes       = 1;
        info.bitsPerPixel = 32;
        info.imageSize    = width_ * height_ * 4;
        file.fileSize     = file.pixelOffset + info.imageSize;
        bool ok = fwrite(&file, sizeof(file), 1, f) == 1 && fwrite(&info, sizeof(info), 1, f) == 1;
        for(size_t i = 0; ok && i < pixels_.size(); ++i)
        {
            const unsigned char bgra[4] = {pixels_[i].z, pixels_[i].y, pixels_[i].x, pixels_[i].w};
            ok = fwrite(bgra, 4, 1, f) == 1;
        }
        fclose(f);
        return ok;
    }

    unsigned int  width() const { return width_; }
    unsigned int  height() const { return height_; }
    uchar4*       data() { return pixels_.empty() ? NULL : &pixels_[0]; }
    const uchar4* data() const { return pixels_.empty() ? NULL : &pixels_[0]; }

private:
    unsigned int        width_;
    unsigned int        height_;
    std::vector<uchar4> pixels_;
};

} // namespace samplekit

#endif // SAMPLEIMAGE_HPP_
